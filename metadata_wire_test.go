package cms

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests pin what the metadata methods put on the wire, with canned
// answers; metadata_refserver_test.go runs the same methods against the
// reference server.

// captured is a request body with its content type.
type captured struct {
	method, path, query, contentType, body string
}

func capture(t *testing.T, e *filesEnv, pattern, answer string, status int) *[]captured {
	t.Helper()
	var mu sync.Mutex
	var got []captured
	e.api.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, captured{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Get("Content-Type"), string(b)})
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, answer)
	})
	return &got
}

const cannedInstance = `{"$id":"u1","$parent":"file_5","$scope":"enterprise_1","$template":"contract","$version":2,"$canEdit":true,"amount":1.5}`

func TestMetadataWireShapes(t *testing.T) {
	t.Parallel()
	e := newFilesEnv(t)
	ctx := context.Background()
	md, tpl := e.client.Metadata, e.client.MetadataTemplates
	tplAnswer := `{"id":"t1","type":"metadata_template","scope":"enterprise_1","templateKey":"contract","displayName":"Contract"}`

	post := capture(t, e, "POST /files/5/metadata/enterprise/contract", cannedInstance, 201)
	inst, _, err := md.Create(ctx, OnFile("5"), MetadataScopeEnterprise, "contract", map[string]any{"amount": 1.5})
	require.NoError(t, err)
	assert.Equal(t, "u1", inst.ID)
	assert.Equal(t, "application/json", (*post)[0].contentType)
	assert.JSONEq(t, `{"amount":1.5}`, (*post)[0].body)

	put := capture(t, e, "PUT /folders/7/metadata/enterprise_1/contract", cannedInstance, 200)
	_, _, err = md.Update(ctx, OnFolder("7"), EnterpriseScope("1"), "contract", NewMetadataPatch().TestAndReplace("amount", 1, 1.5))
	require.NoError(t, err)
	assert.Equal(t, "application/json-patch+json", (*put)[0].contentType)
	assert.JSONEq(t, `[{"op":"test","path":"/amount","value":1},{"op":"replace","path":"/amount","value":1.5}]`, (*put)[0].body)

	get := capture(t, e, "GET /folders/7/metadata/global/properties", `{"$parent":"folder_7","$scope":"global","$template":"properties","a":"b"}`, 201)
	inst, _, err = md.Get(ctx, OnFolder("7"), MetadataScopeGlobal, "properties")
	require.NoError(t, err, "the folder read's documented 201 is a success")
	assert.Len(t, *get, 1)
	assert.Equal(t, "folder_7", inst.Parent)

	capture(t, e, "GET /files/5/metadata", `{"entries":[`+cannedInstance+`],"limit":100}`, 200)
	list, _, err := md.ListByItem(ctx, OnFile("5"))
	require.NoError(t, err)
	assert.Equal(t, 1, list.TotalCount)
	assert.Equal(t, "contract", list.Entries[0].Template)

	del := capture(t, e, "DELETE /files/5/metadata/enterprise/contract", "", 204)
	_, err = md.Delete(ctx, OnFile("5"), MetadataScopeEnterprise, "contract")
	require.NoError(t, err)
	assert.Len(t, *del, 1)

	create := capture(t, e, "POST /metadata_templates/schema", tplAnswer, 201)
	_, _, err = tpl.Create(ctx, &CreateMetadataTemplateRequest{DisplayName: "Contract", Fields: []*MetadataField{{Type: MetadataFieldTypeFloat, Key: "amount", DisplayName: "Amount"}}})
	require.NoError(t, err)
	assert.JSONEq(t, `{"scope":"enterprise","displayName":"Contract","fields":[{"type":"float","key":"amount","displayName":"Amount"}]}`, (*create)[0].body, "scope defaults to enterprise")

	schema := capture(t, e, "PUT /metadata_templates/enterprise/contract/schema", tplAnswer, 200)
	_, _, err = tpl.UpdateSchema(ctx, MetadataScopeEnterprise, "contract", RemoveFieldOp("amount"))
	require.NoError(t, err)
	assert.Equal(t, "application/json-patch+json", (*schema)[0].contentType)
	assert.JSONEq(t, `[{"op":"removeField","fieldKey":"amount"}]`, (*schema)[0].body)

	byID := capture(t, e, "GET /metadata_templates/t1", tplAnswer, 200)
	_, _, err = tpl.GetByID(ctx, "t1")
	require.NoError(t, err)
	assert.Len(t, *byID, 1)

	byInst := capture(t, e, "GET /metadata_templates", `{"entries":[`+tplAnswer+`],"limit":1,"next_marker":null}`, 200)
	page, resp, err := tpl.ListByInstance(ctx, "u1", &ListMetadataTemplatesOptions{Limit: 1})
	require.NoError(t, err)
	assert.Equal(t, "limit=1&metadata_instance_id=u1", (*byInst)[0].query)
	assert.Empty(t, resp.NextMarker)
	assert.Len(t, page.Entries, 1)
}

func TestMetadataUpsertWire(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	exists := `{"message":"instance exists","code":"tuple_already_exists","request_id":"r1"}`

	t.Run("patches on tuple_already_exists", func(t *testing.T) {
		t.Parallel()
		e := newFilesEnv(t)
		capture(t, e, "POST /files/5/metadata/enterprise/contract", exists, 409)
		put := capture(t, e, "PUT /files/5/metadata/enterprise/contract", cannedInstance, 200)
		inst, _, err := e.client.Metadata.Upsert(ctx, OnFile("5"), MetadataScopeEnterprise, "contract", map[string]any{"b": "x", "a": 1})
		require.NoError(t, err)
		assert.Equal(t, int64(2), inst.Version)
		assert.JSONEq(t, `[{"op":"add","path":"/a","value":1},{"op":"add","path":"/b","value":"x"}]`, (*put)[0].body)
	})
	t.Run("no values reads the instance", func(t *testing.T) {
		t.Parallel()
		e := newFilesEnv(t)
		capture(t, e, "POST /files/5/metadata/enterprise/contract", exists, 409)
		get := capture(t, e, "GET /files/5/metadata/enterprise/contract", cannedInstance, 200)
		_, _, err := e.client.Metadata.Upsert(ctx, OnFile("5"), MetadataScopeEnterprise, "contract", nil)
		require.NoError(t, err)
		assert.Len(t, *get, 1)
	})
	for name, c := range map[string]struct {
		status int
		body   string
		want   error
	}{
		"schema error":       {400, `{"code":"schema_validation_failed","message":"bad date"}`, ErrSchemaValidationFailed},
		"other conflict":     {409, `{"code":"conflict","message":"busy"}`, ErrConflict},
		"template not found": {404, `{"code":"instance_tuple_not_found"}`, ErrInstanceTupleNotFound},
		"server error":       {500, `{"code":"internal_server_error"}`, ErrServer},
	} {
		t.Run(name+" is returned, never swallowed", func(t *testing.T) {
			t.Parallel()
			e := newFilesEnv(t, WithoutRetries())
			capture(t, e, "POST /files/5/metadata/enterprise/contract", c.body, c.status)
			put := capture(t, e, "PUT /files/5/metadata/enterprise/contract", cannedInstance, 200)
			inst, resp, err := e.client.Metadata.Upsert(ctx, OnFile("5"), MetadataScopeEnterprise, "contract", map[string]any{"a": 1})
			assert.ErrorIs(t, err, c.want)
			assert.Nil(t, inst)
			require.NotNil(t, resp)
			assert.Equal(t, c.status, resp.StatusCode)
			assert.Empty(t, *put, "no patch after another error")
		})
	}
	t.Run("a failing patch is returned", func(t *testing.T) {
		t.Parallel()
		e := newFilesEnv(t)
		capture(t, e, "POST /files/5/metadata/enterprise/contract", exists, 409)
		capture(t, e, "PUT /files/5/metadata/enterprise/contract", `{"code":"schema_validation_failed"}`, 400)
		_, _, err := e.client.Metadata.Upsert(ctx, OnFile("5"), MetadataScopeEnterprise, "contract", map[string]any{"a": 1})
		assert.ErrorIs(t, err, ErrSchemaValidationFailed)
	})
}

func TestMetadataQueryIterWire(t *testing.T) {
	t.Parallel()
	e := newFilesEnv(t)
	var mu sync.Mutex
	var bodies []map[string]json.RawMessage
	pages := map[string]string{
		"":   `{"entries":[{"type":"file","id":"1"},{"type":"folder","id":"2"}],"limit":2,"next_marker":"m1"}`,
		"m1": `{"entries":[{"type":"file","id":"3"},{"type":"file","id":"4"}],"limit":2,"next_marker":"m2"}`,
		"m2": `{"entries":[{"type":"folder","id":"5"}],"limit":2}`,
	}
	e.api.HandleFunc("POST /metadata_queries/execute_read", func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
		var b map[string]json.RawMessage
		require.NoError(t, json.NewDecoder(r.Body).Decode(&b))
		mu.Lock()
		bodies = append(bodies, b)
		mu.Unlock()
		var marker string
		_ = json.Unmarshal(b["marker"], &marker)
		_, _ = io.WriteString(w, pages[marker])
	})
	q := NewMetadataQuery(EnterpriseScope("1"), "contract", "0").
		Where(QueryField("amount").Gt(5)).OrderBy(SortDirectionAscending, "amount").Limit(2)
	var ids []string
	for entry, err := range e.client.Metadata.QueryIter(context.Background(), q) {
		require.NoError(t, err)
		ids = append(ids, entry.Type+":"+entry.ID)
	}
	assert.Equal(t, []string{"file:1", "folder:2", "file:3", "file:4", "folder:5"}, ids)
	require.Len(t, bodies, 3)
	for i, b := range bodies {
		marker := b["marker"]
		delete(b, "marker")
		assert.Equal(t, bodies[0], b, "page %d: only the marker changes", i)
		if i == 0 {
			assert.Nil(t, marker, "the first page sends no marker")
		}
	}

	// The paginator and the page method walk the same pages.
	p := e.client.Metadata.NewQueryPaginator(q)
	n := 0
	for p.HasMorePages() {
		page, _, err := p.NextPage(context.Background())
		require.NoError(t, err)
		n += len(page.Entries)
	}
	assert.Equal(t, 5, n)
	page, resp, err := e.client.Metadata.Query(context.Background(), q.Marker("m1"))
	require.NoError(t, err)
	assert.Equal(t, "m2", resp.NextMarker)
	assert.Equal(t, "3", page.Entries[0].ID)
}

func TestMetadataQueryRetriedAsARead(t *testing.T) {
	t.Parallel()
	e := newFilesEnv(t)
	var mu sync.Mutex
	calls := 0
	e.api.HandleFunc("POST /metadata_queries/execute_read", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls++
		n := calls
		mu.Unlock()
		if n == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		_, _ = io.WriteString(w, `{"entries":[],"limit":100}`)
	})
	_, _, err := e.client.Metadata.Query(context.Background(), NewMetadataQuery(EnterpriseScope("1"), "c", "0"))
	require.NoError(t, err)
	assert.Equal(t, 2, calls, "the POST of a query is a read, retried like one")
}
