package cms

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func init() {
	for _, b := range []any{
		&CreateMetadataCascadePolicyRequest{FolderID: "1", Scope: MetadataScopeEnterprise, TemplateKey: "contract"},
		ConflictResolutionNone,
	} {
		sweepBodies[reflect.TypeOf(b)] = b
	}
}

const cannedCascadePolicy = `{"id":"p1","type":"metadata_cascade_policy","owner_enterprise":{"type":"enterprise","id":"42"},
"parent":{"type":"folder","id":"7"},"scope":"enterprise_42","templateKey":"contract"}`

func TestMetadataCascadePoliciesWire(t *testing.T) {
	t.Parallel()
	w := newWireLog(t)
	w.answer("POST /metadata_cascade_policies", http.StatusCreated, cannedCascadePolicy)
	w.answer("GET /metadata_cascade_policies/{id}", http.StatusOK, cannedCascadePolicy)
	w.answer("DELETE /metadata_cascade_policies/{id}", http.StatusNoContent, "")
	w.answer("POST /metadata_cascade_policies/{id}/apply", http.StatusAccepted, "")
	// The list takes no limit: the server pages two at a time.
	twoAPage := markerPages(3, func(i int) string {
		return fmt.Sprintf(`{"id":"p%d","type":"metadata_cascade_policy","parent":{"type":"folder","id":"7"},"scope":"enterprise_42","templateKey":"t%d"}`, i, i)
	})
	w.serve("GET /metadata_cascade_policies", func(rw http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		q.Set("limit", "2")
		r.URL.RawQuery = q.Encode()
		twoAPage(rw, r)
	})
	ctx := context.Background()
	ms := w.e.client.MetadataCascadePolicies

	want := &MetadataCascadePolicy{ID: "p1", Type: "metadata_cascade_policy", OwnerEnterprise: &Enterprise{ID: "42", Type: "enterprise"},
		Parent: &MetadataCascadePolicyParent{ID: "7", Type: "folder"}, Scope: EnterpriseScope("42"), TemplateKey: "contract"}
	p, resp, err := ms.Create(ctx, &CreateMetadataCascadePolicyRequest{FolderID: "7", Scope: MetadataScopeEnterprise, TemplateKey: "contract"})
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	assert.JSONEq(t, `{"folder_id":"7","scope":"enterprise","templateKey":"contract"}`, w.last(t).Body)
	assert.Equal(t, want, p)

	p, _, err = ms.Get(ctx, "p1")
	require.NoError(t, err)
	assert.Equal(t, "/metadata_cascade_policies/p1", w.last(t).Path)
	assert.Equal(t, want, p)

	resp, err = ms.Apply(ctx, "p1", ConflictResolutionOverwrite)
	require.NoError(t, err)
	assert.Equal(t, http.StatusAccepted, resp.StatusCode)
	c := w.last(t)
	assert.Equal(t, "POST /metadata_cascade_policies/p1/apply", c.Method+" "+c.Path)
	assert.JSONEq(t, `{"conflict_resolution":"overwrite"}`, c.Body)
	_, err = ms.Apply(ctx, "p1", ConflictResolutionNone)
	require.NoError(t, err)
	assert.JSONEq(t, `{"conflict_resolution":"none"}`, w.last(t).Body)

	_, err = ms.Delete(ctx, "p1")
	require.NoError(t, err)
	assert.Equal(t, http.MethodDelete, w.last(t).Method)

	n := w.count()
	var keys []string
	for p, err := range ms.ListByFolderIter(ctx, "7", &ListMetadataCascadePoliciesOptions{OwnerEnterpriseID: "42"}) {
		require.NoError(t, err)
		keys = append(keys, p.TemplateKey)
	}
	assert.Equal(t, []string{"t0", "t1", "t2"}, keys)
	calls := w.all()[n:]
	require.Len(t, calls, 2)
	assert.Equal(t, []string{"folder_id=7&owner_enterprise_id=42", "folder_id=7&marker=m2&owner_enterprise_id=42"}, []string{calls[0].Query, calls[1].Query})

	pg := ms.NewListByFolderPaginator("7", nil)
	page, resp, err := pg.NextPage(ctx)
	require.NoError(t, err)
	assert.Len(t, page.Entries, 2)
	assert.Equal(t, "m2", resp.NextMarker)
	assert.True(t, pg.HasMorePages())

	n = w.count()
	for _, c := range []struct {
		name string
		body *CreateMetadataCascadePolicyRequest
		want error
	}{
		{"nil", nil, ErrInvalidArgument},
		{"no folder", &CreateMetadataCascadePolicyRequest{Scope: MetadataScopeEnterprise, TemplateKey: "contract"}, ErrMissingID},
		{"root", &CreateMetadataCascadePolicyRequest{FolderID: "0", Scope: MetadataScopeEnterprise, TemplateKey: "contract"}, ErrInvalidID},
		{"no scope", &CreateMetadataCascadePolicyRequest{FolderID: "7", TemplateKey: "contract"}, ErrInvalidArgument},
		{"bad key", &CreateMetadataCascadePolicyRequest{FolderID: "7", Scope: MetadataScopeGlobal, TemplateKey: "a/b"}, ErrInvalidArgument},
	} {
		_, _, err := ms.Create(ctx, c.body)
		assert.ErrorIs(t, err, c.want, c.name)
	}
	_, err = ms.Apply(ctx, "p1", "")
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, err = ms.Apply(ctx, "p1", "merge")
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, err = ms.Apply(ctx, "", ConflictResolutionNone)
	assert.ErrorIs(t, err, ErrMissingID)
	_, _, err = ms.ListByFolder(ctx, "0", nil)
	assert.ErrorIs(t, err, ErrInvalidID)
	_, _, err = ms.ListByFolder(ctx, "7", &ListMetadataCascadePoliciesOptions{Offset: -1})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = ms.Get(ctx, "")
	assert.ErrorIs(t, err, ErrMissingID)
	assert.Equal(t, n, w.count(), "nothing was sent")

	w2 := newWireLog(t)
	w2.answer("POST /metadata_cascade_policies", http.StatusConflict, `{"type":"error","status":409,"code":"tuple_already_exists","message":"A policy for this template exists on the folder"}`)
	_, _, err = w2.e.client.MetadataCascadePolicies.Create(ctx, &CreateMetadataCascadePolicyRequest{FolderID: "7", Scope: MetadataScopeEnterprise, TemplateKey: "contract"})
	assert.ErrorIs(t, err, ErrConflict)
	assert.ErrorIs(t, err, ErrTupleAlreadyExists)
}
