package cms

import (
	"context"
	"encoding/json"
	"iter"
	"maps"
	"net/http"
	"slices"
	"strings"
)

// MetadataQueryOrder is one order_by key of a metadata query.
type MetadataQueryOrder struct {
	FieldKey  string        `json:"field_key"`
	Direction SortDirection `json:"direction"`
}

// MetadataQueryRequest is the body of POST /metadata_queries/execute_read,
// as MetadataQuery builds it.
type MetadataQueryRequest struct {
	From             string                     `json:"from"`
	AncestorFolderID string                     `json:"ancestor_folder_id"`
	Query            string                     `json:"query,omitzero"`
	QueryParams      map[string]json.RawMessage `json:"query_params,omitzero"`
	OrderBy          []MetadataQueryOrder       `json:"order_by,omitzero"`
	Limit            int                        `json:"limit,omitzero"`
	Marker           string                     `json:"marker,omitzero"`
	Fields           []string                   `json:"fields,omitzero"`
}

// maxQueryLimit is the largest page of a metadata query.
const maxQueryLimit = 100

// MetadataQuery builds a metadata query (POST /metadata_queries/execute_read)
// for MetadataService.Query and QueryIter. Conditions put every value in
// query_params behind a :placeholder, typed (string, number, time.Time);
// the builder checks the from (an enterprise_<id> scope), the limit (1 to 100) and that
// all order_by keys share one direction. The first mistake is kept and
// returned when the query is sent (or by Request).
//
//	q := cms.NewMetadataQuery(cms.EnterpriseScope(eid), "contract", "0").
//		Where(cms.QueryField("amount").Ge(1000)).
//		OrderBy(cms.SortDirectionDescending, "amount").
//		Limit(50)
type MetadataQuery struct {
	body     MetadataQueryRequest
	scope    MetadataScope
	conds    []QueryCond
	raw      string
	rawParam map[string]any
	err      error
}

// NewMetadataQuery starts a query over the items holding the template
// scope.templateKey inside ancestorFolderID ("0" for every folder the
// caller can see). The scope must be the full enterprise_<id> (see
// MetadataService.ResolveScope): the service refuses global and the
// shorthand enterprise in a query's from, so the builder does too.
func NewMetadataQuery(scope MetadataScope, templateKey, ancestorFolderID string) *MetadataQuery {
	q := &MetadataQuery{scope: scope}
	q.body.From = string(scope) + "." + templateKey
	q.body.Fields = slices.Clone(defaultQueryFields)
	q.body.AncestorFolderID = ancestorFolderID
	switch {
	case scope.validate() != nil:
		q.err = scope.validate()
	case scope.EnterpriseID() == "":
		q.err = invalidArg("scope", "a query needs the full enterprise_<id> scope, not "+quoteArg(string(scope))+" (see MetadataService.ResolveScope)")
	default:
		if err := checkTemplateKey(templateKey); err != nil {
			q.err = err
		} else if err := checkID("ancestor folder", ancestorFolderID); err != nil {
			q.err = err
		}
	}
	return q
}

func (q *MetadataQuery) fail(err error) *MetadataQuery {
	if q.err == nil {
		q.err = err
	}
	return q
}

// Where adds a condition; several are joined with AND.
func (q *MetadataQuery) Where(c QueryCond) *MetadataQuery {
	if q.raw != "" {
		return q.fail(invalidArg("query", "Where and WhereRaw cannot be mixed"))
	}
	q.conds = append(q.conds, c)
	return q
}

// WhereRaw sets the query text by hand. Values still go in params, one per
// :placeholder: a placeholder without a value, a value without a
// placeholder, an inline literal and a value that is not a string, number
// or time.Time are refused before sending.
func (q *MetadataQuery) WhereRaw(query string, params map[string]any) *MetadataQuery {
	if len(q.conds) > 0 || q.raw != "" {
		return q.fail(invalidArg("query", "Where and WhereRaw cannot be mixed"))
	}
	q.raw, q.rawParam = query, maps.Clone(params)
	return q
}

// OrderBy sorts by field keys (string, float or date fields), all in one
// direction (SortDirectionAscending or SortDirectionDescending; "asc" and "desc" are read the same); a
// later call must use the same direction.
func (q *MetadataQuery) OrderBy(dir SortDirection, fieldKeys ...string) *MetadataQuery {
	dir = SortDirection(strings.ToUpper(string(dir)))
	if dir != SortDirectionAscending && dir != SortDirectionDescending {
		return q.fail(invalidArg("order direction", quoteArg(string(dir))))
	}
	if len(fieldKeys) == 0 {
		return q.fail(invalidArg("order_by", "no field keys"))
	}
	for _, k := range fieldKeys {
		if len(q.body.OrderBy) > 0 && q.body.OrderBy[0].Direction != dir {
			return q.fail(invalidArg("order_by", "every key must use the same direction"))
		}
		if !fieldKeyRE.MatchString(k) {
			return q.fail(invalidArg("order_by", quoteArg(k)))
		}
		q.body.OrderBy = append(q.body.OrderBy, MetadataQueryOrder{k, dir})
	}
	return q
}

// Limit sets the page size, 1 to 100 (the service's default is 100).
func (q *MetadataQuery) Limit(n int) *MetadataQuery {
	if n < 1 || n > maxQueryLimit {
		return q.fail(invalidArg("limit", "want 1 to 100, got "+itoa(n)))
	}
	q.body.Limit = n
	return q
}

// Fields adds item fields to return with each entry ("created_at",
// "size", "metadata.enterprise_1.contract.amount", ...). The service
// returns only type, id and etag of each item unless fields are asked for;
// the builder asks for "name" from the start ("name"), so every
// entry has its Name. Use OnlyFields to ask for exactly a set of fields.
func (q *MetadataQuery) Fields(fields ...string) *MetadataQuery {
	for _, f := range fields {
		if f == "" {
			return q.fail(invalidArg("fields", "empty field"))
		}
	}
	for _, f := range fields {
		if !slices.Contains(q.body.Fields, f) {
			q.body.Fields = append(q.body.Fields, f)
		}
	}
	return q
}

// defaultQueryFields are the fields NewMetadataQuery asks for: without
// them the service returns only each item's type, id and etag.
var defaultQueryFields = []string{"name"}

// OnlyFields replaces the fields asked for (the default "name" included)
// with fields; with none, entries carry only type, id and etag, as the
// service returns them.
func (q *MetadataQuery) OnlyFields(fields ...string) *MetadataQuery {
	q.body.Fields = nil
	return q.Fields(fields...)
}

// WithMetadata asks for the queried template's instance with each entry
// (read it with MetadataQueryEntry.Metadata): its base keys and the named
// field keys, or the base keys only when none is named.
func (q *MetadataQuery) WithMetadata(fieldKeys ...string) *MetadataQuery {
	base := "metadata." + q.body.From
	if len(fieldKeys) == 0 {
		return q.Fields(base)
	}
	for _, k := range fieldKeys {
		q.Fields(base + "." + k)
	}
	return q
}

// Marker starts at a marker from an earlier page (Response.NextMarker).
func (q *MetadataQuery) Marker(marker string) *MetadataQuery {
	q.body.Marker = marker
	return q
}

// Request returns the body the query sends, or the builder's first error.
func (q *MetadataQuery) Request() (*MetadataQueryRequest, error) {
	if q == nil {
		return nil, invalidArg("query", "nil")
	}
	if q.err != nil {
		return nil, q.err
	}
	b := q.body
	b.OrderBy = slices.Clone(b.OrderBy)
	b.Fields = slices.Clone(b.Fields)
	switch {
	case q.raw != "":
		params, err := rawQuery(q.raw, q.rawParam)
		if err != nil {
			return nil, err
		}
		b.Query, b.QueryParams = q.raw, params
	case len(q.conds) > 0:
		qp := &queryParams{values: map[string]json.RawMessage{}}
		parts := make([]string, len(q.conds))
		for i, c := range q.conds {
			text, err := c.text(qp)
			if err != nil {
				return nil, err
			}
			parts[i] = text
		}
		text := strings.Join(parts, " AND ")
		b.Query, b.QueryParams = text, qp.values
	}
	return &b, nil
}

// MetadataQueryEntry is one result of a metadata query: a file or a folder
// (Item.Type "file" or "folder", the record in Item.File or Item.Folder).
// The record holds type, id and etag, and the fields the query asked for:
// "name" unless OnlyFields left it out, the metadata WithMetadata asked for.
type MetadataQueryEntry struct {
	Item
}

// UnmarshalJSON decodes the entry as the record its type names.
func (e *MetadataQueryEntry) UnmarshalJSON(b []byte) error { return e.Item.UnmarshalJSON(b) }

// MarshalJSON encodes the entry's record.
func (e MetadataQueryEntry) MarshalJSON() ([]byte, error) { return e.Item.MarshalJSON() }

// Metadata returns the instance of scope.templateKey the entry came with
// (asked for with MetadataQuery.WithMetadata or a metadata.<scope>.<key>
// field). MetadataScopeEnterprise matches the caller's enterprise_<id>.
func (e *MetadataQueryEntry) Metadata(scope MetadataScope, templateKey string) (*MetadataInstance, error) {
	var md map[string]map[string]json.RawMessage
	switch {
	case e.File != nil:
		md = e.File.Metadata
	case e.Folder != nil:
		md = e.Folder.Metadata
	}
	return ItemMetadata(md, scope, templateKey)
}

// ItemMetadata decodes the instance of scope.templateKey from the Metadata
// field of a File or Folder (returned when the metadata.<scope>.<key>
// fields were asked for). MetadataScopeEnterprise matches any enterprise_<id>. An
// instance that is not there gives an *ArgError.
func ItemMetadata(md map[string]map[string]json.RawMessage, scope MetadataScope, templateKey string) (*MetadataInstance, error) {
	for sc, byKey := range md {
		if MetadataScope(sc) != scope && (scope != MetadataScopeEnterprise || !strings.HasPrefix(sc, "enterprise_")) {
			continue
		}
		if raw, ok := byKey[templateKey]; ok {
			inst := new(MetadataInstance)
			if err := json.Unmarshal(raw, inst); err != nil {
				return nil, err
			}
			return inst, nil
		}
	}
	return nil, &ArgError{Arg: "metadata", Reason: string(scope) + "." + templateKey + " not in the entry (ask for it with WithMetadata)", Err: ErrInvalidArgument}
}

// Query runs a metadata query and returns one page of matching files and
// folders (POST /metadata_queries/execute_read). Response.NextMarker (and
// the page's) fetches the next page with the same query and Marker. The
// call is a read, so it is retried like one.
func (s *MetadataService) Query(ctx context.Context, q *MetadataQuery) (*MarkerPage[*MetadataQueryEntry], *Response, error) {
	body, err := q.Request()
	if err != nil {
		return nil, nil, err
	}
	return s.query(ctx, body)
}

func (s *MetadataService) query(ctx context.Context, body *MetadataQueryRequest) (*MarkerPage[*MetadataQueryEntry], *Response, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, nil, err
	}
	return withNextMarker(callAPI[MarkerPage[*MetadataQueryEntry]](WithIdempotent(ctx), s.client, http.MethodPost, body, nil, "metadata_queries", "execute_read"))
}

// queryPages fetches pages of one query body, changing only the marker.
func (s *MetadataService) queryPages(q *MetadataQuery) (string, markerPageFunc[*MetadataQueryEntry], error) {
	body, err := q.Request()
	if err != nil {
		return "", nil, err
	}
	marker, fetch := pageFuncs(body, func(b *MetadataQueryRequest) *string { return &b.Marker }, s.query)
	return marker, fetch, nil
}

// QueryIter yields every file and folder matching a metadata query,
// fetching pages (POST /metadata_queries/execute_read) as the loop
// advances: each request sends the identical body with only marker
// changed. A query the builder refused is yielded once as the error.
func (s *MetadataService) QueryIter(ctx context.Context, q *MetadataQuery) iter.Seq2[*MetadataQueryEntry, error] {
	marker, fetch, err := s.queryPages(q)
	if err != nil {
		return func(yield func(*MetadataQueryEntry, error) bool) { yield(nil, err) }
	}
	return markerSeq(ctx, marker, fetch)
}

// NewQueryPaginator walks the results of a metadata query one page at a
// time (POST /metadata_queries/execute_read); keep NextMarker to resume. A
// query the builder refused is the first NextPage's error, as every
// paginator reports its arguments' errors.
func (s *MetadataService) NewQueryPaginator(q *MetadataQuery) *MarkerPaginator[*MetadataQueryEntry] {
	marker, fetch, err := s.queryPages(q)
	if err != nil {
		return newMarkerPaginator("", func(context.Context, string) (*MarkerPage[*MetadataQueryEntry], *Response, error) {
			return nil, nil, err
		})
	}
	return newMarkerPaginator(marker, fetch)
}
