package refserver

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

func (s *state) taskKeys() []string { return sortedKeys(s.tasks.tasks) }

func (s *state) taskRec(id string) (recTask, bool) {
	t, ok := s.tasks.tasks[id]
	if !ok {
		return recTask{}, false
	}
	r := recTask{
		FileID: t.fileID, Action: t.action, Rule: t.rule, Message: t.message,
		DueAt: utc(t.dueAt), CreatedAt: utc(t.createdAt), CreatedBy: uid(t.createdBy),
	}
	for _, a := range t.assignments {
		r.Assignments = append(r.Assignments, recTaskAssignment{
			ID: a.id, To: uid(a.to), By: uid(a.by), Message: a.message, State: a.state,
			AssignedAt: utc(a.assignedAt), CompletedAt: utc(a.completedAt),
		})
	}
	return r, true
}

func (s *state) loadTask(id string, r recTask) error {
	by, err := s.userByRef(r.CreatedBy)
	if err != nil {
		return err
	}
	t := &task{id: id, fileID: r.FileID, action: r.Action, rule: r.Rule, message: r.Message,
		dueAt: r.DueAt, createdAt: r.CreatedAt, createdBy: by}
	for _, ra := range r.Assignments {
		us, err := s.usersByRef(ra.To, ra.By)
		if err != nil {
			return err
		}
		a := &taskAssignment{id: ra.ID, task: t, to: us[0], by: us[1], message: ra.Message, state: ra.State,
			assignedAt: ra.AssignedAt, completedAt: ra.CompletedAt}
		t.assignments = append(t.assignments, a)
		s.tasks.assignments[a.id] = a
	}
	s.tasks.tasks[id] = t
	return nil
}

// tasksLoaded rebuilds the tasks of each file in the order they were
// created (ids grow with time; the records come in key order).
func (s *state) tasksLoaded() error {
	for _, t := range s.tasks.tasks {
		s.tasks.byFile[t.fileID] = append(s.tasks.byFile[t.fileID], t)
	}
	for _, ts := range s.tasks.byFile {
		slices.SortFunc(ts, func(a, b *task) int { return cmp.Compare(numID(a.id), numID(b.id)) })
	}
	return nil
}

// recWatermark is the watermark of the item whose id is the key.
type recWatermark struct{ CreatedAt, ModifiedAt time.Time }

func (s *state) watermarkKeys() []string { return sortedKeys(s.watermarks.byItem) }

func (s *state) watermarkRec(id string) (recWatermark, bool) {
	wm, ok := s.watermarks.byItem[id]
	if !ok {
		return recWatermark{}, false
	}
	return recWatermark{utc(wm.createdAt), utc(wm.modifiedAt)}, true
}

func (s *state) loadWatermark(id string, r recWatermark) error {
	s.watermarks.byItem[id] = &watermark{createdAt: r.CreatedAt, modifiedAt: r.ModifiedAt}
	return nil
}

// recMetadata is the metadata state's own record: the creation counter and
// the order of the templates (listings).
type recMetadata struct {
	Seq   int64
	Order []string // template ids
}

const metadataKey = "state"

func metadataKeys(*Server) []string { return []string{metadataKey} }

func (s *state) metadataRec(key string) (recMetadata, bool) {
	r := recMetadata{Seq: s.metadata.seq, Order: []string{}}
	for _, t := range s.metadata.order {
		r.Order = append(r.Order, t.id)
	}
	return r, key == metadataKey
}

func (s *state) loadMetadata(_ string, r recMetadata) error {
	s.metadata.seq = r.Seq
	s.persist.load.templateOrder = r.Order
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

func (s *state) templateKeys() []string { return sortedKeys(s.metadata.byID) }

func (s *state) templateRec(id string) (recTemplate, bool) {
	t, ok := s.metadata.byID[id]
	if !ok {
		return recTemplate{}, false
	}
	r := recTemplate{Scope: t.scope, Key: t.key, DisplayName: t.displayName, Hidden: t.hidden,
		CopyOnCopy: t.copyOnCopy, TypeID: t.typeID, Version: t.version}
	for _, f := range t.fields {
		rf := recField{ID: f.id, Type: f.typ, Key: f.key, DisplayName: f.displayName, Description: f.description, Hidden: f.hidden}
		for _, o := range f.options {
			rf.Options = append(rf.Options, [2]string{o.id, o.key})
		}
		r.Fields = append(r.Fields, rf)
	}
	return r, true
}

func (s *state) loadTemplate(id string, r recTemplate) error {
	t := &mdTemplate{id: id, scope: r.Scope, key: r.Key, displayName: r.DisplayName, hidden: r.Hidden,
		copyOnCopy: r.CopyOnCopy, typeID: r.TypeID, version: r.Version, instances: map[string]*mdInstance{}}
	for _, rf := range r.Fields {
		f := &mdField{id: rf.ID, typ: rf.Type, key: rf.Key, displayName: rf.DisplayName, description: rf.Description, hidden: rf.Hidden}
		for _, o := range rf.Options {
			f.options = append(f.options, &mdOption{id: o[0], key: o[1]})
		}
		t.fields = append(t.fields, f)
	}
	s.metadata.templates[t.scope+"."+t.key] = t
	s.metadata.byID[id] = t
	return nil
}

// templatesLoaded puts the templates in their stored order.
func (s *state) templatesLoaded() error {
	for _, id := range s.persist.load.templateOrder {
		t := s.metadata.byID[id]
		if t == nil {
			return fmt.Errorf("unknown template %s in the template order", id)
		}
		s.metadata.order = append(s.metadata.order, t)
	}
	if len(s.metadata.order) != len(s.metadata.byID) {
		return fmt.Errorf("the template order lists %d of %d templates", len(s.metadata.order), len(s.metadata.byID))
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

func (s *state) instanceKeys() []string { return sortedKeys(s.metadata.byInstID) }

func (s *state) instanceRec(id string) (recInstance, bool) {
	in, ok := s.metadata.byInstID[id]
	if !ok {
		return recInstance{}, false
	}
	r := recInstance{Template: in.tmpl.id, Item: in.item.id, Seq: in.seq, Version: in.version, Values: map[string]recVal{}}
	for k, v := range in.values {
		r.Values[k] = recVal{Kind: v.kind, S: v.s, F: v.f, List: v.list}
	}
	return r, true
}

func (s *state) loadInstance(id string, r recInstance) error {
	t, it := s.metadata.byID[r.Template], s.items[r.Item]
	if t == nil || it == nil {
		return fmt.Errorf("unknown template %s or item %s", r.Template, r.Item)
	}
	in := &mdInstance{id: id, tmpl: t, item: it, seq: r.Seq, version: r.Version, values: map[string]mdVal{}}
	for k, v := range r.Values {
		in.values[k] = mdVal{kind: v.Kind, s: v.S, f: v.F, list: v.List}
	}
	s.metadata.byInstID[id] = in
	return nil
}

// instancesLoaded indexes the instances in creation order (the sort
// indexes of queries are built on demand).
func (s *state) instancesLoaded() error {
	list := make([]*mdInstance, 0, len(s.metadata.byInstID))
	for _, in := range s.metadata.byInstID {
		list = append(list, in)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].seq < list[j].seq })
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

func (s *state) groupKeys() []string { return sortedKeys(s.groups.byID) }

func (s *state) groupRec(id string) (recGroup, bool) {
	g, ok := s.groups.byID[id]
	if !ok {
		return recGroup{}, false
	}
	return recGroup{Name: g.name, Provenance: g.provenance, ExternalSyncID: g.externalSyncID, Description: g.descr,
		Invitability: g.invitability, MemberViewability: g.memberViewability,
		CreatedAt: utc(g.createdAt), ModifiedAt: utc(g.modifiedAt)}, true
}

func (s *state) loadGroup(id string, r recGroup) error {
	g := &group{id: id, name: r.Name, provenance: r.Provenance, externalSyncID: r.ExternalSyncID, descr: r.Description,
		invitability: r.Invitability, memberViewability: r.MemberViewability, createdAt: r.CreatedAt, modifiedAt: r.ModifiedAt}
	s.groups.byID[id] = g
	s.groups.byName[strings.ToLower(g.name)] = g
	return nil
}

// recMembership is a group membership.
type recMembership struct {
	User, Group, Role     string
	Perms                 map[string]bool
	CreatedAt, ModifiedAt time.Time
}

func (s *state) membershipKeys() []string { return sortedKeys(s.groups.memberships) }

func (s *state) membershipRec(id string) (recMembership, bool) {
	m, ok := s.groups.memberships[id]
	if !ok {
		return recMembership{}, false
	}
	return recMembership{User: uid(m.user), Group: m.group.id, Role: m.role, Perms: m.perms,
		CreatedAt: utc(m.createdAt), ModifiedAt: utc(m.modifiedAt)}, true
}

func (s *state) loadMembership(id string, r recMembership) error {
	u, err := s.userByRef(r.User)
	if err != nil {
		return err
	}
	g := s.groups.byID[r.Group]
	if g == nil {
		return fmt.Errorf("unknown group %s", r.Group)
	}
	s.groups.memberships[id] = &membership{id: id, user: u, group: g, role: r.Role, perms: r.Perms,
		createdAt: r.CreatedAt, modifiedAt: r.ModifiedAt}
	return nil
}

// recPin is a device pin.
type recPin struct {
	Owner, ProductName string
	CreatedAt          time.Time
}

func (s *state) pinKeys() []string { return sortedKeys(s.pins.byID) }

func (s *state) pinRec(id string) (recPin, bool) {
	p, ok := s.pins.byID[id]
	if !ok {
		return recPin{}, false
	}
	return recPin{Owner: uid(p.owner), ProductName: p.productName, CreatedAt: utc(p.createdAt)}, true
}

func (s *state) loadPin(id string, r recPin) error {
	u, err := s.userByRef(r.Owner)
	if err != nil {
		return err
	}
	s.pins.byID[id] = &devicePin{id: id, owner: u, productName: r.ProductName, createdAt: r.CreatedAt}
	return nil
}
