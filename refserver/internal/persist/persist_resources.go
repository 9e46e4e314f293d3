package persist

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
)

// Records of tasks, watermarks, metadata, groups, memberships and device
// pins.

// recTask is a task with its assignments, in the order they were made.
type recTask struct {
	FileID, Action, Rule, Message string
	DueAt, CreatedAt              time.Time
	CreatedBy                     string
	Assignments                   []recTaskAssignment
}

type recTaskAssignment struct {
	ID, To, By, Message, State string
	AssignedAt, CompletedAt    time.Time
}

// TaskKeys lists the ids of the tasks, sorted.
func TaskKeys(s *state.ReadTx) []string { return s.Tasks.Tasks.Keys() }

// TaskRec is the record of task id with its assignments, false when it
// is gone.
func TaskRec(s *state.ReadTx, id string) (recTask, bool) {
	t, ok := s.Tasks.Tasks.Get(id)
	if !ok {
		return recTask{}, false
	}
	r := recTask{
		FileID: t.FileID, Action: t.Action, Rule: t.Rule, Message: t.Message,
		DueAt: utcTime(t.DueAt), CreatedAt: utcTime(t.CreatedAt), CreatedBy: userID(t.CreatedBy),
	}
	for _, a := range t.Assignments {
		r.Assignments = append(r.Assignments, recTaskAssignment{
			ID: a.ID, To: userID(a.To), By: userID(a.By), Message: a.Message, State: a.State,
			AssignedAt: utcTime(a.AssignedAt), CompletedAt: utcTime(a.CompletedAt),
		})
	}
	return r, true
}

// LoadTask restores task id and its assignments (after the users they
// name); TasksLoaded files them by file.
func LoadTask(s *state.Tx, id string, r recTask) error {
	by, err := userByRef(&s.Users, r.CreatedBy)
	if err != nil {
		return err
	}
	t := &state.Task{ID: id, FileID: r.FileID, Action: r.Action, Rule: r.Rule, Message: r.Message,
		DueAt: r.DueAt, CreatedAt: r.CreatedAt, CreatedBy: by}
	for _, ra := range r.Assignments {
		us, err := usersByRef(&s.Users, ra.To, ra.By)
		if err != nil {
			return err
		}
		a := &state.TaskAssignment{ID: ra.ID, Task: t, To: us[0], By: us[1], Message: ra.Message, State: ra.State,
			AssignedAt: ra.AssignedAt, CompletedAt: ra.CompletedAt}
		t.Assignments = append(t.Assignments, a)
		s.Tasks.Assignments[a.ID] = a
	}
	s.Tasks.Tasks.Put(id, t)
	return nil
}

// TasksLoaded rebuilds the tasks of each file in the order they were
// created (ids grow with time; the records come in key order).
func TasksLoaded(s *state.Tx) error {
	for _, t := range s.Tasks.Tasks.All() {
		s.Tasks.ByFile[t.FileID] = append(s.Tasks.ByFile[t.FileID], t)
	}
	for _, ts := range s.Tasks.ByFile {
		slices.SortFunc(ts, func(a, b *state.Task) int { return cmp.Compare(state.NumID(a.ID), state.NumID(b.ID)) })
	}
	return nil
}

// recWatermark is the watermark of the item whose reference
// (state.ItemTable.Ref: its id, or its record key) is the key.
type recWatermark struct{ CreatedAt, ModifiedAt time.Time }

// WatermarkKeys lists the references of the watermarked items, sorted.
func WatermarkKeys(s *state.ReadTx) []string { return s.Watermarks.ByItem.Keys() }

// WatermarkRec is the record of the watermark of item id, false when it
// has none.
func WatermarkRec(s *state.ReadTx, id string) (recWatermark, bool) {
	wm, ok := s.Watermarks.ByItem.Get(id)
	if !ok {
		return recWatermark{}, false
	}
	return recWatermark{utcTime(wm.CreatedAt), utcTime(wm.ModifiedAt)}, true
}

// LoadWatermark restores the watermark of item id.
func LoadWatermark(s *state.Tx, id string, r recWatermark) error {
	s.Watermarks.ByItem.Put(id, &state.Watermark{CreatedAt: r.CreatedAt, ModifiedAt: r.ModifiedAt})
	return nil
}

// recMetadata is the metadata state's own record: the creation counter and
// the order of the templates (listings).
type recMetadata struct {
	Seq   int64
	Order []string // template ids
}

// MetadataKeys is the key of the metadata state's one record.
func MetadataKeys(*state.ReadTx) []string { return []string{state.MetadataKey} }

// MetadataRec is the metadata state's record (key MetadataKey): its
// counter and template order; false for another key.
func MetadataRec(s *state.ReadTx, key string) (recMetadata, bool) {
	r := recMetadata{Seq: s.Metadata.Seq, Order: []string{}}
	for _, t := range s.Metadata.Order {
		r.Order = append(r.Order, t.ID)
	}
	return r, key == state.MetadataKey
}

// LoadMetadata restores the metadata counter and keeps the template order
// for TemplatesLoaded.
func LoadMetadata(s *state.Tx, _ string, r recMetadata) error {
	s.Metadata.Seq = r.Seq
	s.Persist.Load.TemplateOrder = r.Order
	return nil
}

// recTemplate is a metadata template.
type recTemplate struct {
	Scope, Key, DisplayName string
	Hidden, CopyOnCopy      bool
	Fields                  []recField
	TypeID                  string
	Version                 int
}

type recField struct {
	ID, Type, Key, DisplayName, Description string
	Hidden                                  bool
	Options                                 [][2]string // id, key
	// OptionConfigs are the options' staticConfig objects, by option id.
	OptionConfigs map[string]string `json:",omitempty"`
}

// TemplateKeys lists the ids of the metadata templates, sorted.
func TemplateKeys(s *state.ReadTx) []string { return s.Metadata.ByID.Keys() }

// TemplateRec is the record of template id, false when it is gone.
func TemplateRec(s *state.ReadTx, id string) (recTemplate, bool) {
	t, ok := s.Metadata.ByID.Get(id)
	if !ok {
		return recTemplate{}, false
	}
	r := recTemplate{Scope: t.Scope, Key: t.Key, DisplayName: t.DisplayName, Hidden: t.Hidden,
		CopyOnCopy: t.CopyOnCopy, TypeID: t.TypeID, Version: t.Version}
	for _, f := range t.Fields {
		rf := recField{ID: f.ID, Type: f.Typ, Key: f.Key, DisplayName: f.DisplayName, Description: f.Description, Hidden: f.Hidden}
		for _, o := range f.Options {
			rf.Options = append(rf.Options, [2]string{o.ID, o.Key})
			if o.StaticConfig != nil {
				if rf.OptionConfigs == nil {
					rf.OptionConfigs = map[string]string{}
				}
				rf.OptionConfigs[o.ID] = string(o.StaticConfig)
			}
		}
		r.Fields = append(r.Fields, rf)
	}
	return r, true
}

// LoadTemplate restores template id (its instances come later);
// TemplatesLoaded orders the templates.
func LoadTemplate(s *state.Tx, id string, r recTemplate) error {
	t := &state.MDTemplate{ID: id, Scope: r.Scope, Key: r.Key, DisplayName: r.DisplayName, Hidden: r.Hidden,
		CopyOnCopy: r.CopyOnCopy, TypeID: r.TypeID, Version: r.Version, Instances: map[string]*state.MDInstance{}}
	for _, rf := range r.Fields {
		f := &state.MDField{ID: rf.ID, Typ: rf.Type, Key: rf.Key, DisplayName: rf.DisplayName, Description: rf.Description, Hidden: rf.Hidden}
		for _, o := range rf.Options {
			opt := &state.MDOption{ID: o[0], Key: o[1]}
			if c, ok := rf.OptionConfigs[o[0]]; ok {
				opt.StaticConfig = json.RawMessage(c)
			}
			f.Options = append(f.Options, opt)
		}
		t.Fields = append(t.Fields, f)
	}
	s.Metadata.Templates[t.Scope+"."+t.Key] = t
	s.Metadata.ByID.Put(id, t)
	return nil
}

// TemplatesLoaded puts the templates in their stored order.
func TemplatesLoaded(s *state.Tx) error {
	for _, id := range s.Persist.Load.TemplateOrder {
		t := s.Metadata.ByID.At(id)
		if t == nil {
			return fmt.Errorf("unknown template %s in the template order", id)
		}
		s.Metadata.Order = append(s.Metadata.Order, t)
	}
	if len(s.Metadata.Order) != s.Metadata.ByID.Len() {
		return fmt.Errorf("the template order lists %d of %d templates", len(s.Metadata.Order), s.Metadata.ByID.Len())
	}
	return nil
}

// recInstance is a metadata instance.
type recInstance struct {
	Template, Item string
	Seq            int64
	Version        int
	Values         map[string]recVal
}

// recVal is an MDVal.
type recVal struct {
	Kind byte
	S    string   `json:",omitempty"`
	F    float64  `json:",omitempty"`
	List []string `json:",omitempty"`
}

// InstanceKeys lists the ids of the metadata instances, sorted.
func InstanceKeys(s *state.ReadTx) []string { return s.Metadata.ByInstID.Keys() }

// InstanceRec is the record of instance id, false when it is gone.
func InstanceRec(s *state.ReadTx, id string) (recInstance, bool) {
	in, ok := s.Metadata.ByInstID.Get(id)
	if !ok {
		return recInstance{}, false
	}
	r := recInstance{Template: in.Tmpl.ID, Item: s.Items.Ref(in.Item), Seq: in.Seq, Version: in.Version, Values: map[string]recVal{}}
	for k, v := range in.Values.All() {
		r.Values[k] = recVal{Kind: v.Kind, S: v.S, F: v.F, List: v.List}
	}
	return r, true
}

// LoadInstance restores instance id (after its template and item);
// InstancesLoaded indexes it.
func LoadInstance(s *state.Tx, id string, r recInstance) error {
	t := s.Metadata.ByID.At(r.Template)
	it, ok := s.Items.ByRef(r.Item)
	if t == nil || !ok {
		return fmt.Errorf("unknown template %s or item %s", r.Template, r.Item)
	}
	in := &state.MDInstance{ID: id, Tmpl: t, Item: it, Seq: r.Seq, Version: r.Version,
		Values: state.MDValuesOf(r.Values, func(v recVal) state.MDVal { return state.MDVal{Kind: v.Kind, S: v.S, F: v.F, List: v.List} })}
	s.Metadata.ByInstID.Put(id, in)
	return nil
}

// InstancesLoaded indexes the instances in creation order (the sort
// indexes of queries are built on demand).
func InstancesLoaded(s *state.Tx) error {
	list := make([]*state.MDInstance, 0, s.Metadata.ByInstID.Len())
	for _, in := range s.Metadata.ByInstID.All() {
		list = append(list, in)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Seq < list[j].Seq })
	for _, in := range list {
		s.IndexInstance(in)
	}
	return nil
}

// recGroup is a group.
type recGroup struct {
	Name, Provenance, ExternalSyncID, Description string
	Invitability, MemberViewability               string
	CreatedAt, ModifiedAt                         time.Time
}

// GroupKeys lists the ids of the groups, sorted.
func GroupKeys(s *state.ReadTx) []string { return s.Groups.ByID.Keys() }

// GroupRec is the record of group id, false when it is gone.
func GroupRec(s *state.ReadTx, id string) (recGroup, bool) {
	g, ok := s.Groups.ByID.Get(id)
	if !ok {
		return recGroup{}, false
	}
	return recGroup{Name: g.Name, Provenance: g.Provenance, ExternalSyncID: g.ExternalSyncID, Description: g.Descr,
		Invitability: g.Invitability, MemberViewability: g.MemberViewability,
		CreatedAt: utcTime(g.CreatedAt), ModifiedAt: utcTime(g.ModifiedAt)}, true
}

// LoadGroup restores group id.
func LoadGroup(s *state.Tx, id string, r recGroup) error {
	g := &state.Group{ID: id, Name: r.Name, Provenance: r.Provenance, ExternalSyncID: r.ExternalSyncID, Descr: r.Description,
		Invitability: r.Invitability, MemberViewability: r.MemberViewability, CreatedAt: r.CreatedAt, ModifiedAt: r.ModifiedAt}
	s.Groups.ByID.Put(id, g)
	s.Groups.ByName[strings.ToLower(g.Name)] = g
	return nil
}

// recMembership is a group membership.
type recMembership struct {
	User, Group, Role     string
	Perms                 map[string]bool
	CreatedAt, ModifiedAt time.Time
}

// MembershipKeys lists the ids of the group memberships, sorted.
func MembershipKeys(s *state.ReadTx) []string { return s.Groups.Memberships.Keys() }

// MembershipRec is the record of membership id, false when it is gone.
func MembershipRec(s *state.ReadTx, id string) (recMembership, bool) {
	m, ok := s.Groups.Memberships.Get(id)
	if !ok {
		return recMembership{}, false
	}
	return recMembership{User: userID(m.User), Group: m.Group.ID, Role: m.Role, Perms: m.Perms,
		CreatedAt: utcTime(m.CreatedAt), ModifiedAt: utcTime(m.ModifiedAt)}, true
}

// LoadMembership restores membership id (after its user and group).
func LoadMembership(s *state.Tx, id string, r recMembership) error {
	u, err := userByRef(&s.Users, r.User)
	if err != nil {
		return err
	}
	g := s.Groups.ByID.At(r.Group)
	if g == nil {
		return fmt.Errorf("unknown group %s", r.Group)
	}
	s.Groups.Memberships.Put(id, &state.Membership{ID: id, User: u, Group: g, Role: r.Role, Perms: r.Perms,
		CreatedAt: r.CreatedAt, ModifiedAt: r.ModifiedAt})
	return nil
}

// recPin is a device pin.
type recPin struct {
	Owner, ProductName string
	CreatedAt          time.Time
}

// PinKeys lists the ids of the device pins, sorted.
func PinKeys(s *state.ReadTx) []string { return s.Pins.ByID.Keys() }

// PinRec is the record of device pin id, false when it is gone.
func PinRec(s *state.ReadTx, id string) (recPin, bool) {
	p, ok := s.Pins.ByID.Get(id)
	if !ok {
		return recPin{}, false
	}
	return recPin{Owner: userID(p.Owner), ProductName: p.ProductName, CreatedAt: utcTime(p.CreatedAt)}, true
}

// LoadPin restores device pin id (after its owner).
func LoadPin(s *state.Tx, id string, r recPin) error {
	u, err := userByRef(&s.Users, r.Owner)
	if err != nil {
		return err
	}
	s.Pins.ByID.Put(id, &state.DevicePin{ID: id, Owner: u, ProductName: r.ProductName, CreatedAt: r.CreatedAt})
	return nil
}
