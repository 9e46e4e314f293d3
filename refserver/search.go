package refserver

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
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

// parseSearch reads and checks every parameter of GET /search.
func (s *Server) parseSearch(r *http.Request) (*state.SearchRequest, *wire.Error) {
	v := r.URL.Query()
	q := &state.SearchRequest{Mask: state.AllSearchFields, Trash: "non_trashed_only", Fields: parseFields(r)}
	raw := v.Get("query")
	q.HasQuery = strings.TrimSpace(raw) != ""
	q.Query = parseSearchQuery(raw)
	if !q.HasQuery && v.Get("mdfilters") == "" {
		return nil, wire.Errorf(http.StatusBadRequest, codeMissingParameter, "Provide at least the query or mdfilters query parameter")
	}
	enum := func(name, def string, allowed ...string) (string, *wire.Error) {
		val := v.Get(name)
		if val == "" {
			return def, nil
		}
		if !slices.Contains(allowed, val) {
			return "", wire.InvalidParam("Invalid value for %q: use one of %s", name, strings.Join(allowed, ", "))
		}
		return val, nil
	}
	var aerr *wire.Error
	var scope, sort, direction string
	if scope, aerr = enum("scope", "user_content", "user_content", "enterprise_content"); aerr != nil {
		return nil, aerr
	}
	q.Enterprise = scope == "enterprise_content"
	if q.Typ, aerr = enum("type", "", "file", "folder", "web_link"); aerr != nil {
		return nil, aerr
	}
	if q.Trash, aerr = enum("trash_content", "non_trashed_only", "non_trashed_only", "trashed_only", "all_items"); aerr != nil {
		return nil, aerr
	}
	if sort, aerr = enum("sort", "relevance", "relevance", "modified_at"); aerr != nil {
		return nil, aerr
	}
	if direction, aerr = enum("direction", "DESC", "DESC", "ASC"); aerr != nil {
		return nil, aerr
	}
	q.ByModified, q.Ascending = sort == "modified_at", direction == "ASC"
	if b := v.Get("include_recent_shared_links"); b != "" {
		if q.WithSharedInfo, aerr = parseBoolParam("include_recent_shared_links", b); aerr != nil {
			return nil, aerr
		}
	}
	if cts := listParam(v.Get("content_types")); cts != nil {
		q.Mask = 0
		for _, c := range cts {
			f, ok := searchContentTypes[c]
			if !ok {
				return nil, wire.InvalidParam("Invalid value for \"content_types\": %q", c)
			}
			q.Mask |= f
		}
	}
	for _, id := range listParam(v.Get("ancestor_folder_ids")) {
		if !state.ValidID(id) {
			return nil, wire.NotFound("folder")
		}
		q.Ancestors = append(q.Ancestors, id)
	}
	if exts := listParam(v.Get("file_extensions")); exts != nil {
		q.Extensions = map[string]bool{}
		for _, e := range exts {
			q.Extensions[strings.ToLower(strings.TrimPrefix(e, "."))] = true
		}
	}
	for name, dst := range map[string]**state.TimeRange{"created_at_range": &q.Created, "updated_at_range": &q.Updated, "deleted_at_range": &q.Deleted} {
		if *dst, aerr = parseTimeRange(name, v.Get(name)); aerr != nil {
			return nil, aerr
		}
	}
	if q.Size, aerr = parseSizeRange(v.Get("size_range")); aerr != nil {
		return nil, aerr
	}
	for name, dst := range map[string]*map[string]bool{"owner_user_ids": &q.Owners, "recent_updater_user_ids": &q.Updaters} {
		if ids := listParam(v.Get(name)); ids != nil {
			*dst = map[string]bool{}
			for _, id := range ids {
				if !state.ValidID(id) {
					return nil, wire.InvalidParam("Invalid value for %q: %q is not a user id", name, id)
				}
				(*dst)[id] = true
			}
		}
	}
	if v.Get("deleted_user_ids") != "" {
		return nil, wire.InvalidParam("deleted_user_ids is not supported by this server: it does not record who trashed an item")
	}
	if raw := v.Get("mdfilters"); raw != "" {
		s.st.View(func(tx *state.ReadTx) { q.MD, aerr = tx.ParseSearchMDFilters(raw) })
		if aerr != nil {
			return nil, aerr
		}
	}
	if q.Page.Offset, aerr = wire.QueryOffset(r.URL.Query()); aerr != nil {
		return nil, aerr
	}
	if q.Page.Limit, aerr = wire.PageLimit(r.URL.Query(), defaultSearchLimit, maxSearchLimit); aerr != nil {
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
		return false, wire.InvalidParam("Invalid value for %q", name)
	}
	return b, nil
}

// parseTimeRange reads "from,to" of RFC 3339 times, either side empty.
func parseTimeRange(name, v string) (*state.TimeRange, *wire.Error) {
	if v == "" {
		return nil, nil
	}
	from, to, ok := strings.Cut(v, ",")
	if !ok {
		return nil, wire.InvalidParam("Invalid value for %q: use <from>,<to> (RFC 3339, either may be empty)", name)
	}
	var r state.TimeRange
	for _, p := range []struct {
		s   string
		dst *time.Time
	}{{from, &r.From}, {to, &r.To}} {
		if p.s == "" {
			continue
		}
		t, err := time.Parse(time.RFC3339, strings.TrimSpace(p.s))
		if err != nil {
			return nil, wire.InvalidParam("Invalid value for %q: %q is not an RFC 3339 date-time", name, p.s)
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
		return nil, wire.InvalidParam("Invalid value for \"size_range\": use <lower>,<upper> (bytes, either may be empty)")
	}
	r := [2]int64{-1, -1}
	for i, p := range []string{lo, hi} {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		n, err := strconv.ParseInt(p, 10, 64)
		if err != nil || n < 0 {
			return nil, wire.InvalidParam("Invalid value for \"size_range\": %q is not a size in bytes", p)
		}
		r[i] = n
	}
	return &r, nil
}

// search serves GET /search.
func (s *Server) searchItems(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	q, aerr := s.parseSearch(r)
	if aerr != nil {
		return aerr
	}
	if q.Enterprise && !p.SeesAll() {
		return wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "The enterprise_content scope is not enabled for this user")
	}
	hints, aerr := repHints(r)
	if aerr != nil {
		return aerr
	}
	// The index catches up with every change made before the search and
	// evaluates the query off the state's lock; a transaction filters,
	// orders and renders the page (internal/state/search_run.go), and the
	// reply is written once the locks are released (as change does).
	var rep state.Reply
	err := s.st.Search(r.Context(), p, q, func(tx *state.Tx, h *state.SearchHits) {
		rep, aerr = withRepHints(hints, func(tx *state.Tx) (state.Reply, *wire.Error) { return tx.SearchTx(p, q, h) })(tx)
	})
	if err != nil {
		return err
	}
	if aerr != nil {
		return aerr
	}
	writeReply(w, rep)
	return nil
}
