package metadata

import (
	"encoding/base64"
	"encoding/json"
	"strings"

	"github.com/contentapi/cms/refserver/internal/mdquery"
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// QueryBody is the body of POST /metadata_queries/execute_read (MetadataQuery).
type QueryBody struct {
	From             *string                    `json:"from"`
	Query            *string                    `json:"query"`
	QueryParams      map[string]json.RawMessage `json:"query_params"`
	AncestorFolderID *string                    `json:"ancestor_folder_id"`
	OrderBy          []orderByBody              `json:"order_by"`
	Limit            *int                       `json:"limit"`
	Marker           *string                    `json:"marker"`
	Fields           []string                   `json:"fields"`
}

type orderByBody struct {
	FieldKey  *string `json:"field_key"`
	Direction *string `json:"direction"`
}

// queryMarker is the opaque next_marker: the hash of the query body
// without its marker, and the position of the page's last entry.
type queryMarker struct {
	H string        `json:"h"`
	V []markerValue `json:"v,omitempty"`
	Q int64         `json:"q"`
}

type markerValue struct {
	K byte     `json:"k"` // 0 = null
	S string   `json:"s,omitempty"`
	F float64  `json:"f,omitempty"`
	L []string `json:"l,omitempty"`
}

// EncodeQueryMarker is the next_marker of a page whose last entry is at p,
// for the query body whose hash is hash (see DecodeQueryMarker).
func EncodeQueryMarker(hash string, p state.Position) string {
	m := queryMarker{H: hash, Q: p.Seq}
	for i, v := range p.Vals {
		if !p.Oks[i] {
			m.V = append(m.V, markerValue{})
			continue
		}
		m.V = append(m.V, markerValue{K: v.Kind, S: v.S, F: v.F, L: v.List})
	}
	b, _ := json.Marshal(m)
	return base64.RawURLEncoding.EncodeToString(b)
}

// DecodeQueryMarker reads a marker of this query. A marker that is not one
// of this server's is 400 bad_request; a marker of another query body (the
// guides: changing query, query_params or other parameters while
// following a marker is an error, no code given) is 400 invalid_query.
func DecodeQueryMarker(s, hash string, keys int) (*state.Position, *wire.Error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	var m queryMarker
	if err != nil || json.Unmarshal(b, &m) != nil || m.H == "" {
		return nil, wire.BadRequest("Invalid value for \"marker\"")
	}
	if m.H != hash || len(m.V) != keys {
		return nil, wire.Errorf(wire.StatusBadRequest, CodeInvalidQuery, "The marker belongs to a different query: send the same body with only the marker changed")
	}
	p := &state.Position{Vals: make([]state.MDVal, keys), Oks: make([]bool, keys), Seq: m.Q}
	for i, v := range m.V {
		if v.K != 0 {
			p.Vals[i], p.Oks[i] = state.MDVal{Kind: v.K, S: v.S, F: v.F, List: v.L}, true
		}
	}
	return p, nil
}

// ParseFrom splits from = scope.templateKey. The scope must be the full
// enterprise_<id>: global and the enterprise shorthand are 400
// invalid_query (DG queries/errors).
func ParseFrom(s *state.Env, from string) (scope, key string, aerr *wire.Error) {
	scope, key, ok := strings.Cut(from, ".")
	if !ok || key == "" || scope == state.ScopeGlobal || scope == "enterprise" || s.ScopeKind(scope) == "" {
		return "", "", wire.Errorf(wire.StatusBadRequest, CodeInvalidQuery, "from must be enterprise_<id>.templateKey, e.g. %s.contract", s.EnterpriseScope())
	}
	return scope, key, nil
}

// queryOrderOf checks order_by: fields of type string, float or date (or a
// sortable item field), one direction for all (DG queries pagination).
// Failures are 400 invalid_query.
func queryOrderOf(t *state.MDTemplate, body []orderByBody) (QueryOrder, *wire.Error) {
	var o QueryOrder
	dir := ""
	for _, ob := range body {
		if ob.FieldKey == nil {
			return o, wire.Errorf(wire.StatusBadRequest, CodeInvalidQuery, "order_by entries need a field_key")
		}
		d := "ASC"
		if ob.Direction != nil {
			d = *ob.Direction
		}
		switch d {
		case "ASC", "asc", "DESC", "desc":
		default:
			return o, wire.Errorf(wire.StatusBadRequest, CodeInvalidQuery, "order_by direction must be ASC or DESC")
		}
		d = strings.ToUpper(d)
		if dir != "" && d != dir {
			return o, wire.Errorf(wire.StatusBadRequest, CodeInvalidQuery, "order_by must use the same direction for every field")
		}
		dir = d
		f, aerr := resolveField(t, *ob.FieldKey)
		if aerr != nil {
			return o, aerr
		}
		if !f.sortable {
			return o, wire.Errorf(wire.StatusBadRequest, CodeInvalidQuery, "Cannot order by %s: only string, float and date fields sort", f.Key)
		}
		o.Keys = append(o.Keys, f)
	}
	o.desc = dir == "DESC"
	return o, nil
}

// ExecuteMetadataQuery serves POST /metadata_queries/execute_read
// (refserver's executeMetadataQuery): one page (limit) of the items below
// the ancestor folder, live for p, whose instance of the template scope.key
// matches tree with params, in body's order; hash is the body's without its
// marker.
func ExecuteMetadataQuery(s *state.Tx, scope string, key string, body QueryBody, tree *mdquery.Node, params map[string]any, p *state.Principal, hash string, limit int) (state.Reply, *wire.Error) {
	t := s.Template(scope, key)
	if t == nil || t.Scope == state.ScopeGlobal {
		return state.Reply{}, wire.Errorf(wire.StatusNotFound, codeInstanceNotFound, "Template %s not found: use the full scope, e.g. %s", *body.From, s.EnterpriseScope())
	}
	pred, aerr := CompileQuery(s, tree, t, params)
	if aerr != nil {
		return state.Reply{}, aerr
	}
	order, aerr := queryOrderOf(t, body.OrderBy)
	if aerr != nil {
		return state.Reply{}, aerr
	}
	ancestor := *body.AncestorFolderID
	if ancestor != state.RootID {
		if !state.ValidID(ancestor) {
			return state.Reply{}, wire.NotFound("folder")
		}
		if _, aerr := s.Lookup(p, "folder", ancestor); aerr != nil {
			return state.Reply{}, aerr
		}
	}
	var after *state.Position
	if body.Marker != nil && *body.Marker != "" {
		if after, aerr = DecodeQueryMarker(*body.Marker, hash, len(order.Keys)); aerr != nil {
			return state.Reply{}, aerr
		}
	}
	// Items in the trash (themselves or with a folder) are no results: they
	// answer 404 everywhere but in the trash.
	keep := func(in *state.MDInstance) bool { return s.Live(p, in.Item) && s.IsUnder(in.Item, ancestor) }
	plan := PlanQuery(t, tree, params)
	page, more := SelectPage(s, t, order, pred, plan, keep, after, limit)
	entries := wire.RenderEach(page, func(in *state.MDInstance) any { return QueryEntry(s, in.Item, body.Fields, p) })
	out := map[string]any{"entries": entries, "limit": limit}
	if more {
		out["next_marker"] = EncodeQueryMarker(hash, PositionOf(s, order, page[len(page)-1]))
	}
	return state.Reply{Status: wire.StatusOK, Body: out}, nil
}

// QueryEntry renders a query result: the base item (type, id, etag) plus
// the requested fields: item fields by name, metadata.<scope>.<key> for
// an instance's base record and metadata.<scope>.<key>.<field> to add one
// of its values.
func QueryEntry(s *state.Tx, it *state.Item, fields []string, p *state.Principal) map[string]any {
	m := map[string]any{"type": it.Typ, "id": it.ID, "etag": it.Etag()}
	var itemFields []string
	for _, f := range fields {
		if !strings.HasPrefix(f, "metadata.") {
			itemFields = append(itemFields, f)
		}
	}
	if len(itemFields) > 0 {
		std := s.StandardFor(it, p)
		for _, f := range itemFields {
			if v, ok := std[f]; ok {
				m[f] = v
			} else if v, ok := s.Extra(it, f, p); ok {
				m[f] = v
			}
		}
	}
	if md := s.MetadataFields(it, fields, false); md != nil {
		m["metadata"] = md
	}
	return m
}
