package state

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
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

func (s *State) TaskKeys() []string { return SortedKeys(s.Tasks.Tasks) }

func (s *State) TaskRec(id string) (recTask, bool) {
	t, ok := s.Tasks.Tasks[id]
	if !ok {
		return recTask{}, false
	}
	r := recTask{
		FileID: t.FileID, Action: t.Action, Rule: t.Rule, Message: t.Message,
		DueAt: Utc(t.DueAt), CreatedAt: Utc(t.createdAt), CreatedBy: Uid(t.CreatedBy),
	}
	for _, a := range t.Assignments {
		r.Assignments = append(r.Assignments, recTaskAssignment{
			ID: a.ID, To: Uid(a.To), By: Uid(a.by), Message: a.Message, State: a.State,
			AssignedAt: Utc(a.assignedAt), CompletedAt: Utc(a.CompletedAt),
		})
	}
	return r, true
}

func (s *State) LoadTask(id string, r recTask) error {
	by, err := s.UserByRef(r.CreatedBy)
	if err != nil {
		return err
	}
	t := &Task{ID: id, FileID: r.FileID, Action: r.Action, Rule: r.Rule, Message: r.Message,
		DueAt: r.DueAt, createdAt: r.CreatedAt, CreatedBy: by}
	for _, ra := range r.Assignments {
		us, err := s.UsersByRef(ra.To, ra.By)
		if err != nil {
			return err
		}
		a := &taskAssignment{ID: ra.ID, Task: t, To: us[0], by: us[1], Message: ra.Message, State: ra.State,
			assignedAt: ra.AssignedAt, CompletedAt: ra.CompletedAt}
		t.Assignments = append(t.Assignments, a)
		s.Tasks.Assignments[a.ID] = a
	}
	s.Tasks.Tasks[id] = t
	return nil
}

// TasksLoaded rebuilds the tasks of each file in the order they were
// created (ids grow with time; the records come in key order).
func (s *State) TasksLoaded() error {
	for _, t := range s.Tasks.Tasks {
		s.Tasks.ByFile[t.FileID] = append(s.Tasks.ByFile[t.FileID], t)
	}
	for _, ts := range s.Tasks.ByFile {
		slices.SortFunc(ts, func(a, b *Task) int { return cmp.Compare(NumID(a.ID), NumID(b.ID)) })
	}
	return nil
}

// recWatermark is the watermark of the item whose id is the key.
type recWatermark struct{ CreatedAt, ModifiedAt time.Time }

func (s *State) WatermarkKeys() []string { return SortedKeys(s.Watermarks.ByItem) }

func (s *State) WatermarkRec(id string) (recWatermark, bool) {
	wm, ok := s.Watermarks.ByItem[id]
	if !ok {
		return recWatermark{}, false
	}
	return recWatermark{Utc(wm.CreatedAt), Utc(wm.ModifiedAt)}, true
}

func (s *State) LoadWatermark(id string, r recWatermark) error {
	s.Watermarks.ByItem[id] = &watermark{CreatedAt: r.CreatedAt, ModifiedAt: r.ModifiedAt}
	return nil
}

// recMetadata is the metadata state's own record: the creation counter and
// the order of the templates (listings).
type recMetadata struct {
	Seq   int64
	Order []string // template ids
}

const MetadataKey = "state"

func (s *State) MetadataRec(key string) (recMetadata, bool) {
	r := recMetadata{Seq: s.Metadata.seq, Order: []string{}}
	for _, t := range s.Metadata.Order {
		r.Order = append(r.Order, t.ID)
	}
	return r, key == MetadataKey
}

func (s *State) LoadMetadata(_ string, r recMetadata) error {
	s.Metadata.seq = r.Seq
	s.Persist.Load.templateOrder = r.Order
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
}

func (s *State) TemplateKeys() []string { return SortedKeys(s.Metadata.ByID) }

func (s *State) TemplateRec(id string) (recTemplate, bool) {
	t, ok := s.Metadata.ByID[id]
	if !ok {
		return recTemplate{}, false
	}
	r := recTemplate{Scope: t.Scope, Key: t.Key, DisplayName: t.DisplayName, Hidden: t.Hidden,
		CopyOnCopy: t.CopyOnCopy, TypeID: t.typeID, Version: t.Version}
	for _, f := range t.Fields {
		rf := recField{ID: f.id, Type: f.Typ, Key: f.Key, DisplayName: f.displayName, Description: f.description, Hidden: f.hidden}
		for _, o := range f.Options {
			rf.Options = append(rf.Options, [2]string{o.id, o.Key})
		}
		r.Fields = append(r.Fields, rf)
	}
	return r, true
}

func (s *State) LoadTemplate(id string, r recTemplate) error {
	t := &MDTemplate{ID: id, Scope: r.Scope, Key: r.Key, DisplayName: r.DisplayName, Hidden: r.Hidden,
		CopyOnCopy: r.CopyOnCopy, typeID: r.TypeID, Version: r.Version, Instances: map[string]*MDInstance{}}
	for _, rf := range r.Fields {
		f := &mdField{id: rf.ID, Typ: rf.Type, Key: rf.Key, displayName: rf.DisplayName, description: rf.Description, hidden: rf.Hidden}
		for _, o := range rf.Options {
			f.Options = append(f.Options, &mdOption{id: o[0], Key: o[1]})
		}
		t.Fields = append(t.Fields, f)
	}
	s.Metadata.Templates[t.Scope+"."+t.Key] = t
	s.Metadata.ByID[id] = t
	return nil
}

// TemplatesLoaded puts the templates in their stored order.
func (s *State) TemplatesLoaded() error {
	for _, id := range s.Persist.Load.templateOrder {
		t := s.Metadata.ByID[id]
		if t == nil {
			return fmt.Errorf("unknown template %s in the template order", id)
		}
		s.Metadata.Order = append(s.Metadata.Order, t)
	}
	if len(s.Metadata.Order) != len(s.Metadata.ByID) {
		return fmt.Errorf("the template order lists %d of %d templates", len(s.Metadata.Order), len(s.Metadata.ByID))
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

// recVal is an mdVal.
type recVal struct {
	Kind byte
	S    string   `json:",omitempty"`
	F    float64  `json:",omitempty"`
	List []string `json:",omitempty"`
}

func (s *State) InstanceKeys() []string { return SortedKeys(s.Metadata.ByInstID) }

func (s *State) InstanceRec(id string) (recInstance, bool) {
	in, ok := s.Metadata.ByInstID[id]
	if !ok {
		return recInstance{}, false
	}
	r := recInstance{Template: in.Tmpl.ID, Item: in.Item.ID, Seq: in.Seq, Version: in.version, Values: map[string]recVal{}}
	for k, v := range in.Values {
		r.Values[k] = recVal{Kind: v.Kind, S: v.S, F: v.F, List: v.list}
	}
	return r, true
}

func (s *State) LoadInstance(id string, r recInstance) error {
	t, it := s.Metadata.ByID[r.Template], s.Items[r.Item]
	if t == nil || it == nil {
		return fmt.Errorf("unknown template %s or item %s", r.Template, r.Item)
	}
	in := &MDInstance{ID: id, Tmpl: t, Item: it, Seq: r.Seq, version: r.Version, Values: map[string]MDVal{}}
	for k, v := range r.Values {
		in.Values[k] = MDVal{Kind: v.Kind, S: v.S, F: v.F, list: v.List}
	}
	s.Metadata.ByInstID[id] = in
	return nil
}

// InstancesLoaded indexes the instances in creation order (the sort
// indexes of queries are built on demand).
func (s *State) InstancesLoaded() error {
	list := make([]*MDInstance, 0, len(s.Metadata.ByInstID))
	for _, in := range s.Metadata.ByInstID {
		list = append(list, in)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Seq < list[j].Seq })
	for _, in := range list {
		s.indexInstance(in)
	}
	return nil
}

// recGroup is a group.
type recGroup struct {
	Name, Provenance, ExternalSyncID, Description string
	Invitability, MemberViewability               string
	CreatedAt, ModifiedAt                         time.Time
}

func (s *State) GroupKeys() []string { return SortedKeys(s.Groups.ByID) }

func (s *State) GroupRec(id string) (recGroup, bool) {
	g, ok := s.Groups.ByID[id]
	if !ok {
		return recGroup{}, false
	}
	return recGroup{Name: g.name, Provenance: g.provenance, ExternalSyncID: g.externalSyncID, Description: g.descr,
		Invitability: g.invitability, MemberViewability: g.memberViewability,
		CreatedAt: Utc(g.createdAt), ModifiedAt: Utc(g.modifiedAt)}, true
}

func (s *State) LoadGroup(id string, r recGroup) error {
	g := &group{ID: id, name: r.Name, provenance: r.Provenance, externalSyncID: r.ExternalSyncID, descr: r.Description,
		invitability: r.Invitability, memberViewability: r.MemberViewability, createdAt: r.CreatedAt, modifiedAt: r.ModifiedAt}
	s.Groups.ByID[id] = g
	s.Groups.ByName[strings.ToLower(g.name)] = g
	return nil
}

// recMembership is a group membership.
type recMembership struct {
	User, Group, Role     string
	Perms                 map[string]bool
	CreatedAt, ModifiedAt time.Time
}

func (s *State) MembershipKeys() []string { return SortedKeys(s.Groups.Memberships) }

func (s *State) MembershipRec(id string) (recMembership, bool) {
	m, ok := s.Groups.Memberships[id]
	if !ok {
		return recMembership{}, false
	}
	return recMembership{User: Uid(m.User), Group: m.Group.ID, Role: m.Role, Perms: m.Perms,
		CreatedAt: Utc(m.createdAt), ModifiedAt: Utc(m.ModifiedAt)}, true
}

func (s *State) LoadMembership(id string, r recMembership) error {
	u, err := s.UserByRef(r.User)
	if err != nil {
		return err
	}
	g := s.Groups.ByID[r.Group]
	if g == nil {
		return fmt.Errorf("unknown group %s", r.Group)
	}
	s.Groups.Memberships[id] = &membership{ID: id, User: u, Group: g, Role: r.Role, Perms: r.Perms,
		createdAt: r.CreatedAt, ModifiedAt: r.ModifiedAt}
	return nil
}

// recPin is a device pin.
type recPin struct {
	Owner, ProductName string
	CreatedAt          time.Time
}

func (s *State) PinKeys() []string { return SortedKeys(s.Pins.ByID) }

func (s *State) PinRec(id string) (recPin, bool) {
	p, ok := s.Pins.ByID[id]
	if !ok {
		return recPin{}, false
	}
	return recPin{Owner: Uid(p.Owner), ProductName: p.ProductName, CreatedAt: Utc(p.createdAt)}, true
}

func (s *State) LoadPin(id string, r recPin) error {
	u, err := s.UserByRef(r.Owner)
	if err != nil {
		return err
	}
	s.Pins.ByID[id] = &DevicePin{ID: id, Owner: u, ProductName: r.ProductName, createdAt: r.CreatedAt}
	return nil
}
