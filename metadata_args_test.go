package cms

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMetadataArgumentsRejectedBeforeSending(t *testing.T) {
	t.Parallel()
	e := newFilesEnv(t)
	ctx := context.Background()
	md, tpl := e.client.Metadata, e.client.MetadataTemplates
	file, scope := OnFile("1"), MetadataScopeEnterprise
	patch := NewMetadataPatch().Add("a", 1)
	okField := &MetadataField{Type: MetadataFieldTypeString, Key: "a", DisplayName: "A"}
	errs := map[string]error{}
	call := func(name string, err error) { errs[name] = err }
	_, _, err := md.Get(ctx, OnFolder("0"), scope, "c")
	call("root folder", err)
	_, _, err = md.Get(ctx, OnFile(""), scope, "c")
	call("empty file id", err)
	_, _, err = md.Get(ctx, OnFile("../x"), scope, "c")
	call("bad file id", err)
	_, _, err = md.Get(ctx, MetadataItem{}, scope, "c")
	call("zero item", err)
	_, _, err = md.Get(ctx, file, "nope", "c")
	call("bad scope", err)
	_, _, err = md.Get(ctx, file, scope, "")
	call("empty key", err)
	_, _, err = md.ListByItem(ctx, OnFolder(""))
	call("list empty id", err)
	_, _, err = md.Create(ctx, file, scope, "c", []int{1})
	call("create non-object", err)
	_, _, err = md.Upsert(ctx, file, scope, "c", "x")
	call("upsert non-object", err)
	_, _, err = md.Update(ctx, file, scope, "c", nil)
	call("nil patch", err)
	_, _, err = md.Update(ctx, file, scope, "c", NewMetadataPatch())
	call("empty patch", err)
	_, _, err = md.Update(ctx, file, scope, "c", NewMetadataPatch().Add("", 1))
	call("bad patch", err)
	_, _, err = md.Update(ctx, file, scope, "c/d", patch)
	call("update bad key", err)
	_, err = md.Delete(ctx, OnFolder("0"), scope, "c")
	call("delete root", err)
	_, _, err = md.Query(ctx, NewMetadataQuery(scope, "c", "0"))
	call("query shorthand scope", err)
	_, _, err = md.Query(ctx, nil)
	call("nil query", err)
	_, _, err = md.NewQueryPaginator(NewMetadataQuery(EnterpriseScope("1"), "c", "0").Limit(500)).NextPage(ctx)
	call("paginator limit (the first page's error)", err)
	for _, err := range md.QueryIter(ctx, NewMetadataQuery(EnterpriseScope("1"), "c", "0").Limit(500)) {
		call("iter limit", err)
	}
	_, _, err = tpl.Create(ctx, nil)
	call("nil create", err)
	_, _, err = tpl.Create(ctx, &CreateMetadataTemplateRequest{Scope: MetadataScopeGlobal, DisplayName: "x"})
	call("create global", err)
	_, _, err = tpl.Create(ctx, &CreateMetadataTemplateRequest{DisplayName: ""})
	call("create no name", err)
	_, _, err = tpl.Create(ctx, &CreateMetadataTemplateRequest{DisplayName: "x", TemplateKey: "a b"})
	call("create bad key", err)
	_, _, err = tpl.Create(ctx, &CreateMetadataTemplateRequest{DisplayName: "x", Fields: []*MetadataField{okField, okField}})
	call("create repeated field", err)
	_, _, err = tpl.Create(ctx, &CreateMetadataTemplateRequest{DisplayName: "x", Fields: []*MetadataField{nil}})
	call("create nil field", err)
	_, _, err = tpl.Get(ctx, "", "c")
	call("template empty scope", err)
	_, _, err = tpl.GetByID(ctx, "")
	call("template empty id", err)
	_, err = tpl.Delete(ctx, scope, "")
	call("delete empty key", err)
	_, _, err = tpl.UpdateSchema(ctx, scope, "c")
	call("no ops", err)
	_, _, err = tpl.UpdateSchema(ctx, scope, "c", AddFieldOp(*okField), RemoveFieldOp(""))
	call("one bad op", err)
	_, _, err = tpl.ListEnterprise(ctx, &ListMetadataTemplatesOptions{Limit: -1})
	call("negative limit", err)
	_, _, err = tpl.ListByInstance(ctx, "", nil)
	call("no instance id", err)
	for _, err := range tpl.ListByInstanceIter(ctx, "a/b", nil) {
		call("iter bad instance id", err)
	}
	for name, err := range errs {
		var ae *ArgError
		assert.ErrorAs(t, err, &ae, name)
	}
	assert.Empty(t, e.reqs, "nothing was sent")
}

func TestMetadataErrorSentinels(t *testing.T) {
	t.Parallel()
	// Metadata errors come without type and status; the status is HTTP's.
	for _, c := range []struct {
		status   int
		code     string
		sentinel error
		byStatus error
	}{
		{409, "tuple_already_exists", ErrTupleAlreadyExists, ErrConflict},
		{404, "instance_not_found", ErrInstanceNotFound, ErrNotFound},
		{404, "instance_tuple_not_found", ErrInstanceTupleNotFound, ErrNotFound},
		{400, "schema_validation_failed", ErrSchemaValidationFailed, ErrBadRequest},
		{409, "failed_json_patch_application", ErrFailedJSONPatch, ErrConflict},
		{400, "invalid_query", ErrInvalidQuery, ErrBadRequest},
		{400, "unexpected_json_type", ErrUnexpectedJSONType, ErrBadRequest},
	} {
		body := `{"message":"value differs from expectations","code":"` + c.code + `","request_id":"abc123"}`
		err := CheckResponse(errorResponse(c.status, body, nil))
		var ae *APIError
		require.ErrorAs(t, err, &ae)
		assert.Equal(t, c.status, ae.StatusCode)
		assert.Equal(t, c.code, ae.Code)
		assert.Equal(t, "value differs from expectations", ae.Message)
		assert.Equal(t, "abc123", ae.RequestID)
		assert.Equal(t, body, string(ae.Body), "the body is kept whole")
		assert.ErrorIs(t, err, c.sentinel)
		assert.ErrorIs(t, err, c.byStatus)
		if c.sentinel != ErrInvalidQuery {
			assert.NotErrorIs(t, err, ErrInvalidQuery, c.code)
		}
		assert.Contains(t, c.sentinel.Error(), c.code)
	}
	err := CheckResponse(errorResponse(404, `{"code":"instance_not_found"}`, nil))
	assert.NotErrorIs(t, err, ErrTupleAlreadyExists)

	// A field of an unexpected type loses only itself.
	err = CheckResponse(errorResponse(400, `{"code":"invalid_query","message":7,"request_id":"r9","status":"400"}`, nil))
	var ae *APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "invalid_query", ae.Code)
	assert.Equal(t, "r9", ae.RequestID)
	assert.Equal(t, 400, ae.StatusCode)
	// A message without a code is not overwritten by the OAuth fallback.
	err = CheckResponse(errorResponse(400, `{"message":"Could not find field: attr5"}`, nil))
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "Could not find field: attr5", ae.Message)
}
