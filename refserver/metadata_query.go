package refserver

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/contentapi/cms/refserver/internal/mdquery"
	"github.com/contentapi/cms/refserver/internal/wire"
)

const (
	defaultQueryLimit = 100
	maxQueryLimit     = 100
)

// queryBody is the body of POST /metadata_queries/execute_read (MetadataQuery).
type queryBody struct {
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

// bodyHash fingerprints a query body without its marker, independent of
// whitespace and member order.
func bodyHash(b []byte) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return ""
	}
	delete(m, "marker")
	canon, _ := json.Marshal(m)
	sum := sha256.Sum256(canon)
	return hex.EncodeToString(sum[:12])
}

func encodeQueryMarker(hash string, p position) string {
	m := queryMarker{H: hash, Q: p.seq}
	for i, v := range p.vals {
		if !p.oks[i] {
			m.V = append(m.V, markerValue{})
			continue
		}
		m.V = append(m.V, markerValue{K: v.kind, S: v.s, F: v.f, L: v.list})
	}
	b, _ := json.Marshal(m)
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeQueryMarker reads a marker of this query. A marker that is not one
// of this server's is 400 bad_request; a marker of another query body (the
// guides: changing query, query_params or other parameters while
// following a marker is an error, no code given) is 400 invalid_query.
func decodeQueryMarker(s, hash string, keys int) (*position, *wire.Error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	var m queryMarker
	if err != nil || json.Unmarshal(b, &m) != nil || m.H == "" {
		return nil, wire.BadRequest("Invalid value for \"marker\"")
	}
	if m.H != hash || len(m.V) != keys {
		return nil, wire.Errorf(http.StatusBadRequest, codeInvalidQuery, "The marker belongs to a different query: send the same body with only the marker changed")
	}
	p := &position{vals: make([]mdVal, keys), oks: make([]bool, keys), seq: m.Q}
	for i, v := range m.V {
		if v.K != 0 {
			p.vals[i], p.oks[i] = mdVal{kind: v.K, s: v.S, f: v.F, list: v.L}, true
		}
	}
	return p, nil
}

// parseFrom splits from = scope.templateKey. The scope must be the full
// enterprise_<id>: global and the enterprise shorthand are 400
// invalid_query (DG queries/errors).
func (s *state) parseFrom(from string) (scope, key string, aerr *wire.Error) {
	scope, key, ok := strings.Cut(from, ".")
	if !ok || key == "" || scope == scopeGlobal || scope == "enterprise" || s.scopeKind(scope) == "" {
		return "", "", wire.Errorf(http.StatusBadRequest, codeInvalidQuery, "from must be enterprise_<id>.templateKey, e.g. %s.contract", s.enterpriseScope())
	}
	return scope, key, nil
}

// queryOrderOf checks order_by: fields of type string, float or date (or a
// sortable item field), one direction for all (DG queries pagination).
// Failures are 400 invalid_query.
func queryOrderOf(t *mdTemplate, body []orderByBody) (queryOrder, *wire.Error) {
	var o queryOrder
	dir := ""
	for _, ob := range body {
		if ob.FieldKey == nil {
			return o, wire.Errorf(http.StatusBadRequest, codeInvalidQuery, "order_by entries need a field_key")
		}
		d := "ASC"
		if ob.Direction != nil {
			d = *ob.Direction
		}
		switch d {
		case "ASC", "asc", "DESC", "desc":
		default:
			return o, wire.Errorf(http.StatusBadRequest, codeInvalidQuery, "order_by direction must be ASC or DESC")
		}
		d = strings.ToUpper(d)
		if dir != "" && d != dir {
			return o, wire.Errorf(http.StatusBadRequest, codeInvalidQuery, "order_by must use the same direction for every field")
		}
		dir = d
		f, aerr := resolveField(t, *ob.FieldKey)
		if aerr != nil {
			return o, aerr
		}
		if !f.sortable {
			return o, wire.Errorf(http.StatusBadRequest, codeInvalidQuery, "Cannot order by %s: only string, float and date fields sort", f.key)
		}
		o.keys = append(o.keys, f)
	}
	o.desc = dir == "DESC"
	return o, nil
}

// executeMetadataQuery serves POST /metadata_queries/execute_read: 200
// {entries, limit, next_marker}. Entries are the files and folders below
// ancestor_folder_id ("0" = everything the caller can see), not in the
// trash, that hold an instance of the from template matching the query, in
// order_by order (default: the order the instances were created). limit is
// 1..100, default 100 (0 means the default); a larger one is 400
// bad_request.
func (s *Server) executeMetadataQuery(w http.ResponseWriter, r *http.Request, p *principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	raw, aerr := wire.ReadBody(r.Body)
	if aerr != nil {
		return aerr
	}
	var body queryBody
	if aerr := wire.DecodeJSON(bytes.NewReader(raw), &body); aerr != nil {
		return aerr
	}
	if body.From == nil {
		return wire.BadRequest("Missing required field: from")
	}
	if body.AncestorFolderID == nil {
		return wire.BadRequest("Missing required field: ancestor_folder_id")
	}
	limit := defaultQueryLimit
	if body.Limit != nil && *body.Limit != 0 {
		limit = *body.Limit
	}
	if limit < 0 || limit > maxQueryLimit {
		return wire.BadRequest("limit must be between 0 and %d", maxQueryLimit)
	}
	scope, key, aerr := s.parseFrom(*body.From)
	if aerr != nil {
		return aerr
	}
	var query string
	if body.Query != nil {
		query = *body.Query
	}
	tree, qerr := mdquery.Parse(query)
	if qerr != nil {
		return wire.Errorf(http.StatusBadRequest, codeInvalidQuery, "Invalid query: %s", qerr.Msg)
	}
	params, aerr := decodeParams(body.QueryParams)
	if aerr != nil {
		return aerr
	}
	hash := bodyHash(raw)

	return s.change(w, func() (reply, *wire.Error) {
		return s.executeMetadataQueryTx(scope, key, body, tree, params, p, hash, limit)
	})
}

// executeMetadataQueryTx is the transaction of POST
// /metadata_queries/execute_read (executeMetadataQuery): what it checks, reads
// and changes under the state's lock, and its reply. Callers hold mu.
func (s *state) executeMetadataQueryTx(scope string, key string, body queryBody, tree *mdquery.Node, params map[string]any, p *principal, hash string, limit int) (reply, *wire.Error) {
	t := s.template(scope, key)
	if t == nil || t.scope == scopeGlobal {
		return reply{}, wire.Errorf(http.StatusNotFound, codeInstanceNotFound, "Template %s not found: use the full scope, e.g. %s", *body.From, s.enterpriseScope())
	}
	pred, aerr := s.compileQuery(tree, t, params)
	if aerr != nil {
		return reply{}, aerr
	}
	order, aerr := queryOrderOf(t, body.OrderBy)
	if aerr != nil {
		return reply{}, aerr
	}
	ancestor := *body.AncestorFolderID
	if ancestor != rootID {
		if !validID(ancestor) {
			return reply{}, wire.NotFound("folder")
		}
		if _, aerr := s.lookup(p, "folder", ancestor); aerr != nil {
			return reply{}, aerr
		}
	}
	var after *position
	if body.Marker != nil && *body.Marker != "" {
		if after, aerr = decodeQueryMarker(*body.Marker, hash, len(order.keys)); aerr != nil {
			return reply{}, aerr
		}
	}
	// Items in the trash (themselves or with a folder) are no results: they
	// answer 404 everywhere but in the trash.
	keep := func(in *mdInstance) bool { return s.live(p, in.item) && s.isUnder(in.item, ancestor) }
	page, more := s.selectPage(t, order, pred, keep, after, limit)
	entries := wire.RenderEach(page, func(in *mdInstance) any { return s.queryEntry(in.item, body.Fields, p) })
	out := map[string]any{"entries": entries, "limit": limit}
	if more {
		out["next_marker"] = encodeQueryMarker(hash, s.positionOf(order, page[len(page)-1]))
	}
	return reply{http.StatusOK, out}, nil
}

// queryEntry renders a query result: the base item (type, id, etag) plus
// the requested fields: item fields by name, metadata.<scope>.<key> for
// an instance's base record and metadata.<scope>.<key>.<field> to add one
// of its values.
func (s *state) queryEntry(it *item, fields []string, p *principal) map[string]any {
	m := map[string]any{"type": it.typ, "id": it.id, "etag": it.etag()}
	var itemFields []string
	for _, f := range fields {
		if !strings.HasPrefix(f, "metadata.") {
			itemFields = append(itemFields, f)
		}
	}
	if len(itemFields) > 0 {
		std := s.standard(it)
		for _, f := range itemFields {
			if v, ok := std[f]; ok {
				m[f] = v
			} else if v, ok := s.extra(it, f, p); ok {
				m[f] = v
			}
		}
	}
	if md := s.metadataFields(it, fields, false); md != nil {
		m["metadata"] = md
	}
	return m
}

// metadataFields answers the metadata.<scope>.<key>[.<field>] entries of a
// fields list for one item: {scope: {key: instance}}; nil when none is
// requested or applied. full (GET /files/{id}, GET /folders/{id}) gives
// each instance's full record; otherwise (query results) its base record
// plus the fields named. Unknown templates and fields are left out, as
// unknown fields are. Callers hold s.mu.
func (s *state) metadataFields(it *item, fields []string, full bool) map[string]any {
	var out map[string]any
	for _, f := range fields {
		rest, ok := strings.CutPrefix(f, "metadata.")
		if !ok {
			continue
		}
		parts := strings.SplitN(rest, ".", 3)
		if len(parts) < 2 {
			continue
		}
		scope := s.scopeKind(parts[0])
		if scope == "" || scope == "other" {
			continue
		}
		t := s.template(scope, parts[1])
		if t == nil {
			continue
		}
		in := t.instances[it.id]
		if in == nil {
			continue
		}
		if out == nil {
			out = map[string]any{}
		}
		byKey, _ := out[scope].(map[string]any)
		if byKey == nil {
			byKey = map[string]any{}
			out[scope] = byKey
		}
		rec, _ := byKey[t.key].(map[string]any)
		if rec == nil {
			if full {
				rec = in.record()
			} else {
				rec = in.base()
			}
			byKey[t.key] = rec
		}
		if len(parts) == 3 {
			if v, ok := in.values[parts[2]]; ok {
				rec[parts[2]] = v.json()
			}
		}
	}
	return out
}
