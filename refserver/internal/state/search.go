package state

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// SearchRequest is a parsed GET /search.
type SearchRequest struct {
	Query          *SearchNode
	HasQuery       bool
	Mask           SearchField
	Typ            string
	Trash          string // non_trashed_only, trashed_only, all_items
	Ancestors      []string
	Extensions     map[string]bool
	Created        *TimeRange
	Updated        *TimeRange
	Deleted        *TimeRange
	Size           *[2]int64 // inclusive; -1 = open
	Owners         map[string]bool
	Updaters       map[string]bool
	MD             *searchMDFilter
	ByModified     bool
	Ascending      bool
	Enterprise     bool
	WithSharedInfo bool
	Page           wire.Page
	Fields         []string
}

// TimeRange is an inclusive range of times; a zero end is open.
type TimeRange struct{ From, To time.Time }

func (r *TimeRange) contains(t time.Time) bool {
	return (r.From.IsZero() || !t.Before(r.From)) && (r.To.IsZero() || !t.After(r.To))
}

// SearchKeeps applies the access model and every filter but the query's.
func (s *Tx) SearchKeeps(p *Principal, q *SearchRequest, it *Item, ancestors map[string]bool) bool {
	if it.ID == RootID || !s.visible(p, it) || it.Trashed() && !s.seesTrashed(p, it) {
		return false
	}
	switch q.Trash {
	case "non_trashed_only":
		if it.Trashed() {
			return false
		}
	case "trashed_only":
		if !it.Trashed() {
			return false
		}
	}
	if q.Deleted != nil && (q.Trash != "trashed_only" || !q.Deleted.contains(it.TrashedAt())) {
		return false
	}
	if q.Typ != "" && it.Typ != q.Typ {
		return false
	}
	if q.Extensions != nil && (it.Typ != "file" || !q.Extensions[fileExtension(it.Name)]) {
		return false
	}
	if q.Created != nil && !q.Created.contains(it.CreatedAt) || q.Updated != nil && !q.Updated.contains(it.ModifiedAt) {
		return false
	}
	if q.Owners != nil && (it.Owner == nil || !q.Owners[it.Owner.ID]) {
		return false
	}
	if q.Updaters != nil && !s.updatedBy(it, q.Updaters) {
		return false
	}
	if ancestors != nil && !s.under(it, ancestors) {
		return false
	}
	if q.Size != nil {
		var size int64
		switch it.Typ {
		case "file":
			size = it.Current().Blob.Size
		case "folder":
			size = s.folderSize(it)
		default:
			return false
		}
		if q.Size[0] >= 0 && size < q.Size[0] || q.Size[1] >= 0 && size > q.Size[1] {
			return false
		}
	}
	return true
}

// seesTrashed reports whether p finds it, which is in the trash, by a
// search (trash_content trashed_only or all_items): the trash is its
// owner's (and the admin's), a collaborator does not search it. (The
// stricter reading of the trash rule: a collaborator's role does not
// reach into the owner's trash.)
func (s *ReadTx) seesTrashed(p *Principal, it *Item) bool {
	return p.SeesAll() || it.Owner != nil && it.Owner == p.User
}

// updatedBy reports whether a user of ids changed it last or uploaded one
// of its last 10 versions.
func (s *Tx) updatedBy(it *Item, ids map[string]bool) bool {
	if it.ModBy != nil && ids[it.ModBy.ID] {
		return true
	}
	for i := len(it.Versions) - 1; i >= 0 && i >= len(it.Versions)-10; i-- {
		if by := it.Versions[i].By; by != nil && ids[by.ID] {
			return true
		}
	}
	return false
}

// under reports whether one of the folders (ids) is an ancestor of it;
// "0" is the root every item is under.
func (s *Tx) under(it *Item, folders map[string]bool) bool {
	if folders[RootID] {
		return true
	}
	for f := range s.ancestors(it) { // tree.go
		if folders[f.ID] {
			return true
		}
	}
	return false
}

// searchMDFilter is the one metadata filter of mdfilters.
type searchMDFilter struct {
	tmpl   *MDTemplate
	fields []mdCondition
}

// mdCondition is one field's condition: equality with one of values, or a
// range (gt/lt, inclusive as the guide's examples read).
type mdCondition struct {
	field  *MDField
	values []MDVal
	gt, lt *MDVal
}

// ParseSearchMDFilters reads mdfilters: a JSON array of exactly one
// {scope, templateKey, filters}.
func (s *ReadTx) ParseSearchMDFilters(raw string) (*searchMDFilter, *wire.Error) {
	var list []struct {
		Scope       string                     `json:"scope"`
		TemplateKey string                     `json:"templateKey"`
		Filters     map[string]json.RawMessage `json:"filters"`
	}
	if err := json.Unmarshal([]byte(raw), &list); err != nil || len(list) != 1 {
		return nil, wire.InvalidParam("Invalid value for \"mdfilters\": use a JSON array of one {scope, templateKey, filters}")
	}
	f := list[0]
	scope := s.ScopeKind(f.Scope)
	t := s.Template(scope, f.TemplateKey)
	if t == nil {
		return nil, wire.InvalidParam("Invalid value for \"mdfilters\": no template %s.%s", f.Scope, f.TemplateKey)
	}
	out := &searchMDFilter{tmpl: t}
	for key, rawVal := range f.Filters {
		_, field := t.Field(key)
		if field == nil && t.FreeForm() {
			field = &MDField{Typ: FieldString, Key: key} // global.properties: any key, string values
		}
		if field == nil {
			return nil, wire.InvalidParam("Invalid value for \"mdfilters\": template %s has no field %q", t.Key, key)
		}
		c, err := mdConditionOf(field, rawVal)
		if err != nil {
			return nil, wire.InvalidParam("Invalid value for \"mdfilters\" field %q: %v", key, err)
		}
		out.fields = append(out.fields, c)
	}
	return out, nil
}

// mdConditionOf reads the condition of one field: a value, a list of
// values (any of them), or {gt, lt} for float, integer and date fields.
func mdConditionOf(f *MDField, raw json.RawMessage) (mdCondition, error) {
	c := mdCondition{field: f}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return c, err
	}
	if rng, ok := v.(map[string]any); ok {
		if f.Typ != FieldFloat && f.Typ != FieldInteger && f.Typ != FieldDate {
			return c, fmt.Errorf("a range needs a float or date field")
		}
		for k, bound := range rng {
			val, err := FieldValue(f, bound)
			if err != nil {
				return c, err
			}
			switch k {
			case "gt":
				c.gt = &val
			case "lt":
				c.lt = &val
			default:
				return c, fmt.Errorf("a range has gt and lt, not %q", k)
			}
		}
		if c.gt == nil && c.lt == nil {
			return c, fmt.Errorf("a range needs gt or lt")
		}
		return c, nil
	}
	values := []any{v}
	if list, ok := v.([]any); ok && f.Typ != FieldMultiSelect {
		values = list
	}
	for _, one := range values {
		if f.Typ == FieldMultiSelect || f.Typ == FieldTaxonomy {
			if str, ok := one.(string); ok {
				one = []any{str}
			}
		}
		val, err := FieldValue(f, one)
		if err != nil {
			return c, err
		}
		c.values = append(c.values, val)
	}
	if len(c.values) == 0 {
		return c, fmt.Errorf("no value")
	}
	return c, nil
}

// matches reports whether an instance's value meets the condition.
func (c mdCondition) matches(in *MDInstance) bool {
	v, ok := in.Values.Get(c.field.Key)
	if !ok {
		return false
	}
	if c.gt != nil || c.lt != nil {
		return v.Kind == c.field.kindOfValue() && (c.gt == nil || v.F >= c.gt.F) && (c.lt == nil || v.F <= c.lt.F)
	}
	for _, want := range c.values {
		if v.Kind == ValList {
			for _, opt := range want.List {
				if slices.Contains(v.List, opt) {
					return true
				}
			}
			continue
		}
		if v.Kind == ValNumber || v.Kind == ValDate {
			if v.F == want.F {
				return true
			}
		} else if v.S == want.S {
			return true
		}
	}
	return false
}

// MatchMDFilter keeps the hits whose instance of the filter's template
// meets every condition; with no hits (no query), every such instance's
// item, scored 0.
func (s *Tx) MatchMDFilter(f *searchMDFilter, hits map[*Item]Hit) map[*Item]Hit {
	keep := func(in *MDInstance) bool {
		for _, c := range f.fields {
			if !c.matches(in) {
				return false
			}
		}
		return true
	}
	out := map[*Item]Hit{}
	if hits == nil {
		for _, in := range f.tmpl.Instances {
			if keep(in) {
				out[in.Item] = Hit{}
			}
		}
		return out
	}
	for it, sc := range hits {
		if in := f.tmpl.Instances[s.Items.Ref(it)]; in != nil && keep(in) {
			out[it] = sc
		}
	}
	return out
}
