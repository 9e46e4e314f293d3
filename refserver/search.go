package refserver

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// GET /search (spec get_search): the items the caller may see (the access
// model, access.go) that match a query (search_query.go, matched through
// the index of search_index.go) and the filters below, a page at a time
// by offset.
//
// Rules and choices:
//   - query or mdfilters is required: neither (or a blank query) is 400
//     missing_parameter; a malformed parameter (an unknown enum value, a
//     date that is not RFC 3339, a size that is no integer, mdfilters that
//     are not one filter of a known template with known fields) is 400
//     invalid_parameter, as the spec's 400 lists;
//   - an ancestor folder the caller cannot see is 404 not_found;
//   - scope enterprise_content needs the enterprise admin (or the app):
//     others get 403 access_denied_insufficient_permissions (the service
//     enables it per user through support);
//   - offset above 10000 is 400; limit defaults to 30 and is lowered to
//     200;
//   - relevance (the default order) weighs a word found in the name above
//     one in the tags, the description, then the content and comments,
//     times the words of a phrase; ties go to the newest change, then the
//     id. sort=modified_at orders by modified_at (direction DESC by
//     default; relevance ignores direction);
//   - file_extensions keeps files only; size_range keeps files and
//     folders (a folder's size is that of the files below it);
//     recent_updater_user_ids matches the last modifier and the uploaders
//     of the last 10 versions; deleted_at_range and deleted_user_ids need
//     trash_content=trashed_only (else nothing matches, as the spec says)
//     and this server does not record who trashed an item, so
//     deleted_user_ids is refused with 400 invalid_parameter rather than
//     answered wrongly;
//   - include_recent_shared_links=true answers search_result records
//     ({item, accessible_via_shared_link: null}); this server records no
//     access through shared links.

const (
	codeMissingParameter = "missing_parameter"

	defaultSearchLimit = 30
	maxSearchLimit     = 200
)

// searchRequest is a parsed GET /search.
type searchRequest struct {
	query          *searchNode
	hasQuery       bool
	mask           searchField
	typ            string
	trash          string // non_trashed_only, trashed_only, all_items
	ancestors      []string
	extensions     map[string]bool
	created        *timeRange
	updated        *timeRange
	deleted        *timeRange
	size           *[2]int64 // inclusive; -1 = open
	owners         map[string]bool
	updaters       map[string]bool
	md             *searchMDFilter
	byModified     bool
	ascending      bool
	enterprise     bool
	withSharedInfo bool
	page           wire.Page
	fields         []string
}

// timeRange is an inclusive range of times; a zero end is open.
type timeRange struct{ from, to time.Time }

func (r *timeRange) contains(t time.Time) bool {
	return (r.from.IsZero() || !t.Before(r.from)) && (r.to.IsZero() || !t.After(r.to))
}

func invalidParam(format string, args ...any) *wire.Error {
	return wire.Errorf(http.StatusBadRequest, wire.CodeInvalidParameter, format, args...)
}

// parseSearch reads and checks every parameter of GET /search.
func (s *Server) parseSearch(r *http.Request) (*searchRequest, *wire.Error) {
	v := r.URL.Query()
	q := &searchRequest{mask: allSearchFields, trash: "non_trashed_only", fields: parseFields(r)}
	raw := v.Get("query")
	q.hasQuery = strings.TrimSpace(raw) != ""
	q.query = parseSearchQuery(raw)
	if !q.hasQuery && v.Get("mdfilters") == "" {
		return nil, wire.Errorf(http.StatusBadRequest, codeMissingParameter, "Provide at least the query or mdfilters query parameter")
	}
	enum := func(name, def string, allowed ...string) (string, *wire.Error) {
		val := v.Get(name)
		if val == "" {
			return def, nil
		}
		if !slices.Contains(allowed, val) {
			return "", invalidParam("Invalid value for %q: use one of %s", name, strings.Join(allowed, ", "))
		}
		return val, nil
	}
	var aerr *wire.Error
	var scope, sort, direction string
	if scope, aerr = enum("scope", "user_content", "user_content", "enterprise_content"); aerr != nil {
		return nil, aerr
	}
	q.enterprise = scope == "enterprise_content"
	if q.typ, aerr = enum("type", "", "file", "folder", "web_link"); aerr != nil {
		return nil, aerr
	}
	if q.trash, aerr = enum("trash_content", "non_trashed_only", "non_trashed_only", "trashed_only", "all_items"); aerr != nil {
		return nil, aerr
	}
	if sort, aerr = enum("sort", "relevance", "relevance", "modified_at"); aerr != nil {
		return nil, aerr
	}
	if direction, aerr = enum("direction", "DESC", "DESC", "ASC"); aerr != nil {
		return nil, aerr
	}
	q.byModified, q.ascending = sort == "modified_at", direction == "ASC"
	if b := v.Get("include_recent_shared_links"); b != "" {
		if q.withSharedInfo, aerr = parseBoolParam("include_recent_shared_links", b); aerr != nil {
			return nil, aerr
		}
	}
	if cts := listParam(v.Get("content_types")); cts != nil {
		q.mask = 0
		for _, c := range cts {
			f, ok := searchContentTypes[c]
			if !ok {
				return nil, invalidParam("Invalid value for \"content_types\": %q", c)
			}
			q.mask |= f
		}
	}
	for _, id := range listParam(v.Get("ancestor_folder_ids")) {
		if !validID(id) {
			return nil, wire.NotFound("folder")
		}
		q.ancestors = append(q.ancestors, id)
	}
	if exts := listParam(v.Get("file_extensions")); exts != nil {
		q.extensions = map[string]bool{}
		for _, e := range exts {
			q.extensions[strings.ToLower(strings.TrimPrefix(e, "."))] = true
		}
	}
	for name, dst := range map[string]**timeRange{"created_at_range": &q.created, "updated_at_range": &q.updated, "deleted_at_range": &q.deleted} {
		if *dst, aerr = parseTimeRange(name, v.Get(name)); aerr != nil {
			return nil, aerr
		}
	}
	if q.size, aerr = parseSizeRange(v.Get("size_range")); aerr != nil {
		return nil, aerr
	}
	for name, dst := range map[string]*map[string]bool{"owner_user_ids": &q.owners, "recent_updater_user_ids": &q.updaters} {
		if ids := listParam(v.Get(name)); ids != nil {
			*dst = map[string]bool{}
			for _, id := range ids {
				if !validID(id) {
					return nil, invalidParam("Invalid value for %q: %q is not a user id", name, id)
				}
				(*dst)[id] = true
			}
		}
	}
	if v.Get("deleted_user_ids") != "" {
		return nil, invalidParam("deleted_user_ids is not supported by this server: it does not record who trashed an item")
	}
	if raw := v.Get("mdfilters"); raw != "" {
		if q.md, aerr = s.parseSearchMDFilters(raw); aerr != nil {
			return nil, aerr
		}
	}
	if q.page.Offset, aerr = wire.QueryOffset(r.URL.Query()); aerr != nil {
		return nil, aerr
	}
	if q.page.Limit, aerr = wire.PageLimit(r.URL.Query(), defaultSearchLimit, maxSearchLimit); aerr != nil {
		return nil, aerr
	}
	return q, nil
}

// listParam splits a comma-separated parameter; nil when empty.
func listParam(v string) []string {
	if strings.TrimSpace(v) == "" {
		return nil
	}
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func parseBoolParam(name, v string) (bool, *wire.Error) {
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, invalidParam("Invalid value for %q", name)
	}
	return b, nil
}

// parseTimeRange reads "from,to" of RFC 3339 times, either side empty.
func parseTimeRange(name, v string) (*timeRange, *wire.Error) {
	if v == "" {
		return nil, nil
	}
	from, to, ok := strings.Cut(v, ",")
	if !ok {
		return nil, invalidParam("Invalid value for %q: use <from>,<to> (RFC 3339, either may be empty)", name)
	}
	var r timeRange
	for _, p := range []struct {
		s   string
		dst *time.Time
	}{{from, &r.from}, {to, &r.to}} {
		if p.s == "" {
			continue
		}
		t, err := time.Parse(time.RFC3339, strings.TrimSpace(p.s))
		if err != nil {
			return nil, invalidParam("Invalid value for %q: %q is not an RFC 3339 date-time", name, p.s)
		}
		*p.dst = t
	}
	return &r, nil
}

// parseSizeRange reads "lower,upper" byte sizes, either side empty.
func parseSizeRange(v string) (*[2]int64, *wire.Error) {
	if v == "" {
		return nil, nil
	}
	lo, hi, ok := strings.Cut(v, ",")
	if !ok {
		return nil, invalidParam("Invalid value for \"size_range\": use <lower>,<upper> (bytes, either may be empty)")
	}
	r := [2]int64{-1, -1}
	for i, p := range []string{lo, hi} {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		n, err := strconv.ParseInt(p, 10, 64)
		if err != nil || n < 0 {
			return nil, invalidParam("Invalid value for \"size_range\": %q is not a size in bytes", p)
		}
		r[i] = n
	}
	return &r, nil
}

// search serves GET /search.
func (s *Server) searchItems(w http.ResponseWriter, r *http.Request, p *principal) error {
	q, aerr := s.parseSearch(r)
	if aerr != nil {
		return aerr
	}
	if q.enterprise && !p.seesAll() {
		return wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "The enterprise_content scope is not enabled for this user")
	}
	s.mu.Lock()
	page, aerr := s.runSearch(r, p, q)
	s.mu.Unlock()
	if aerr != nil {
		return aerr
	}
	writePage(w, http.StatusOK, page)
	return nil
}

// scored is a search hit and its relevance.
type scored struct {
	it    *item
	score int
}

// runSearch finds, orders and renders one page. Callers hold s.mu.
func (s *Server) runSearch(r *http.Request, p *principal, q *searchRequest) (map[string]any, *wire.Error) {
	var ancestors map[string]bool
	for _, id := range q.ancestors {
		if id != rootID {
			if _, aerr := s.lookup(p, "folder", id); aerr != nil {
				return nil, aerr
			}
		}
		if ancestors == nil {
			ancestors = map[string]bool{}
		}
		ancestors[id] = true
	}
	s.flushSearchIndex(r.Context())
	var hits map[*item]int
	if q.query != nil {
		hits = s.search.eval(q.query, q.mask)
	} else if q.hasQuery {
		hits = map[*item]int{} // only punctuation or operators: nothing to match
	}
	if q.md != nil {
		hits = s.matchMDFilter(q.md, hits)
	}
	list := make([]scored, 0, len(hits))
	for it, sc := range hits {
		if s.searchKeeps(p, q, it, ancestors) {
			list = append(list, scored{it, sc})
		}
	}
	slices.SortFunc(list, func(a, b scored) int {
		if !q.byModified {
			if c := cmp.Compare(b.score, a.score); c != 0 {
				return c
			}
			return cmpNewest(a.it, b.it)
		}
		c := a.it.modifiedAt.Compare(b.it.modifiedAt)
		if !q.ascending {
			c = -c
		}
		if c != 0 {
			return c
		}
		return cmpNewest(a.it, b.it)
	})
	total := int64(len(list))
	start := min(q.page.Offset, total)
	end := min(start+q.page.Limit, total)
	entries := make([]any, 0, end-start)
	for _, h := range list[start:end] {
		rec := s.render(h.it, q.fields, p)
		if q.withSharedInfo {
			entries = append(entries, map[string]any{"type": "search_result", "item": rec, "accessible_via_shared_link": nil})
		} else {
			entries = append(entries, rec)
		}
	}
	typ := "search_results_items"
	if q.withSharedInfo {
		typ = "search_results_with_shared_links"
	}
	return map[string]any{"type": typ, "entries": entries, "limit": q.page.Limit, "offset": q.page.Offset, "total_count": total}, nil
}

// cmpNewest orders the most recently changed item first, then by id
// (numerically: ids are decimal).
func cmpNewest(a, b *item) int {
	if c := b.modifiedAt.Compare(a.modifiedAt); c != 0 {
		return c
	}
	if c := cmp.Compare(len(a.id), len(b.id)); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}

// searchKeeps applies the access model and every filter but the query's.
func (s *state) searchKeeps(p *principal, q *searchRequest, it *item, ancestors map[string]bool) bool {
	if it.id == rootID || !s.visible(p, it) {
		return false
	}
	switch q.trash {
	case "non_trashed_only":
		if it.trashed() {
			return false
		}
	case "trashed_only":
		if !it.trashed() {
			return false
		}
	}
	if q.deleted != nil && (q.trash != "trashed_only" || !q.deleted.contains(it.trashedAt)) {
		return false
	}
	if q.typ != "" && it.typ != q.typ {
		return false
	}
	if q.extensions != nil && (it.typ != "file" || !q.extensions[fileExtension(it.name)]) {
		return false
	}
	if q.created != nil && !q.created.contains(it.createdAt) || q.updated != nil && !q.updated.contains(it.modifiedAt) {
		return false
	}
	if q.owners != nil && (it.owner == nil || !q.owners[it.owner.id]) {
		return false
	}
	if q.updaters != nil && !s.updatedBy(it, q.updaters) {
		return false
	}
	if ancestors != nil && !s.under(it, ancestors) {
		return false
	}
	if q.size != nil {
		var size int64
		switch it.typ {
		case "file":
			size = it.current().blob.Size
		case "folder":
			size = s.folderSize(it)
		default:
			return false
		}
		if q.size[0] >= 0 && size < q.size[0] || q.size[1] >= 0 && size > q.size[1] {
			return false
		}
	}
	return true
}

// updatedBy reports whether a user of ids changed it last or uploaded one
// of its last 10 versions.
func (s *state) updatedBy(it *item, ids map[string]bool) bool {
	if it.modBy != nil && ids[it.modBy.id] {
		return true
	}
	for i := len(it.versions) - 1; i >= 0 && i >= len(it.versions)-10; i-- {
		if by := it.versions[i].by; by != nil && ids[by.id] {
			return true
		}
	}
	return false
}

// under reports whether one of the folders (ids) is an ancestor of it;
// "0" is the root every item is under.
func (s *state) under(it *item, folders map[string]bool) bool {
	if folders[rootID] {
		return true
	}
	for f := range s.ancestors(it) { // tree.go
		if folders[f.id] {
			return true
		}
	}
	return false
}

// searchMDFilter is the one metadata filter of mdfilters.
type searchMDFilter struct {
	tmpl   *mdTemplate
	fields []mdCondition
}

// mdCondition is one field's condition: equality with one of values, or a
// range (gt/lt, inclusive as the guide's examples read).
type mdCondition struct {
	field  *mdField
	values []mdVal
	gt, lt *mdVal
}

// parseSearchMDFilters reads mdfilters: a JSON array of exactly one
// {scope, templateKey, filters}.
func (s *state) parseSearchMDFilters(raw string) (*searchMDFilter, *wire.Error) {
	var list []struct {
		Scope       string                     `json:"scope"`
		TemplateKey string                     `json:"templateKey"`
		Filters     map[string]json.RawMessage `json:"filters"`
	}
	if err := json.Unmarshal([]byte(raw), &list); err != nil || len(list) != 1 {
		return nil, invalidParam("Invalid value for \"mdfilters\": use a JSON array of one {scope, templateKey, filters}")
	}
	f := list[0]
	scope := s.scopeKind(f.Scope)
	t := s.template(scope, f.TemplateKey)
	if t == nil {
		return nil, invalidParam("Invalid value for \"mdfilters\": no template %s.%s", f.Scope, f.TemplateKey)
	}
	out := &searchMDFilter{tmpl: t}
	for key, rawVal := range f.Filters {
		_, field := t.field(key)
		if field == nil && t.freeForm() {
			field = &mdField{typ: fieldString, key: key} // global.properties: any key, string values
		}
		if field == nil {
			return nil, invalidParam("Invalid value for \"mdfilters\": template %s has no field %q", t.key, key)
		}
		c, err := mdConditionOf(field, rawVal)
		if err != nil {
			return nil, invalidParam("Invalid value for \"mdfilters\" field %q: %v", key, err)
		}
		out.fields = append(out.fields, c)
	}
	return out, nil
}

// mdConditionOf reads the condition of one field: a value, a list of
// values (any of them), or {gt, lt} for float, integer and date fields.
func mdConditionOf(f *mdField, raw json.RawMessage) (mdCondition, error) {
	c := mdCondition{field: f}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return c, err
	}
	if rng, ok := v.(map[string]any); ok {
		if f.typ != fieldFloat && f.typ != fieldInteger && f.typ != fieldDate {
			return c, fmt.Errorf("a range needs a float or date field")
		}
		for k, bound := range rng {
			val, err := fieldValue(f, bound)
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
	if list, ok := v.([]any); ok && f.typ != fieldMultiSelect {
		values = list
	}
	for _, one := range values {
		if f.typ == fieldMultiSelect || f.typ == fieldTaxonomy {
			if str, ok := one.(string); ok {
				one = []any{str}
			}
		}
		val, err := fieldValue(f, one)
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
func (c mdCondition) matches(in *mdInstance) bool {
	v, ok := in.values[c.field.key]
	if !ok {
		return false
	}
	if c.gt != nil || c.lt != nil {
		return v.kind == c.field.kindOfValue() && (c.gt == nil || v.f >= c.gt.f) && (c.lt == nil || v.f <= c.lt.f)
	}
	for _, want := range c.values {
		if v.kind == valList {
			for _, opt := range want.list {
				if slices.Contains(v.list, opt) {
					return true
				}
			}
			continue
		}
		if v.kind == valNumber || v.kind == valDate {
			if v.f == want.f {
				return true
			}
		} else if v.s == want.s {
			return true
		}
	}
	return false
}

// matchMDFilter keeps the hits whose instance of the filter's template
// meets every condition; with no hits (no query), every such instance's
// item, scored 0. Callers hold s.mu.
func (s *state) matchMDFilter(f *searchMDFilter, hits map[*item]int) map[*item]int {
	keep := func(in *mdInstance) bool {
		for _, c := range f.fields {
			if !c.matches(in) {
				return false
			}
		}
		return true
	}
	out := map[*item]int{}
	if hits == nil {
		for _, in := range f.tmpl.instances {
			if keep(in) {
				out[in.item] = 0
			}
		}
		return out
	}
	for it, sc := range hits {
		if in := f.tmpl.instances[it.id]; in != nil && keep(in) {
			out[it] = sc
		}
	}
	return out
}
