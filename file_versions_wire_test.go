package cms

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const cannedVersion = `{"id":"v1","type":"file_version","sha1":"134b65991ed521fcfe4724b7d814ab8ded5185dc","name":"a.txt","size":629644,
"created_at":"2026-01-02T03:04:05Z","modified_at":"2026-01-02T03:04:06Z","modified_by":{"id":"11","type":"user","name":"Ann","login":"ann@example.com"},
"trashed_at":null,"trashed_by":null,"restored_at":"2026-01-03T00:00:00Z","restored_by":{"id":"12","type":"user","name":"Bob","login":"bob@example.com"},
"purged_at":null,"uploader_display_name":"Ann","version_number":"1"}`

// offsetPages serves a list of total entries, made by entry(i), by offset
// and limit as the service pages it.
func offsetPages(total int, entry func(i int) string) func(rw http.ResponseWriter, r *http.Request) {
	return func(rw http.ResponseWriter, r *http.Request) {
		offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		if limit == 0 {
			limit = 100
		}
		body := `{"total_count":` + strconv.Itoa(total) + `,"limit":` + strconv.Itoa(limit) + `,"offset":` + strconv.Itoa(offset) + `,"entries":[`
		for i := offset; i < min(offset+limit, total); i++ {
			if i > offset {
				body += ","
			}
			body += entry(i)
		}
		writeJSON(rw, http.StatusOK, []byte(body+`]}`))
	}
}

func TestFileVersionsWire(t *testing.T) {
	t.Parallel()
	w := newWireLog(t)
	w.serve("GET /files/{id}/versions", offsetPages(5, func(i int) string {
		return fmt.Sprintf(`{"id":"v%d","type":"file_version","sha1":"s%d","version_number":"%d"}`, i, i, 5-i)
	}))
	w.answer("GET /files/{id}/versions/{vid}", http.StatusOK, cannedVersion)
	w.answer("DELETE /files/{id}/versions/{vid}", http.StatusNoContent, "")
	w.answer("PUT /files/{id}/versions/{vid}", http.StatusOK, cannedVersion)
	w.answer("POST /files/{id}/versions/current", http.StatusCreated, `{"id":"v9","type":"file_version","sha1":"s1","name":"a.txt","version_number":"6"}`)
	ctx := context.Background()
	fv := w.e.client.FileVersions

	page, _, err := fv.ListByFile(ctx, "5", &ListFileVersionsOptions{Limit: 2, Offset: 2, Fields: []string{"sha1"}})
	require.NoError(t, err)
	assert.Equal(t, "/files/5/versions", w.last(t).Path)
	assert.Equal(t, "fields=sha1&limit=2&offset=2", w.last(t).Query)
	assert.Equal(t, 5, page.TotalCount)
	assert.Equal(t, []string{"v2", "v3"}, []string{page.Entries[0].ID, page.Entries[1].ID})

	opts := &ListFileVersionsOptions{Limit: 2}
	var ids []string
	for v, err := range fv.ListByFileIter(ctx, "5", opts) {
		require.NoError(t, err)
		ids = append(ids, v.ID)
	}
	assert.Equal(t, []string{"v0", "v1", "v2", "v3", "v4"}, ids, "three pages")
	assert.Equal(t, &ListFileVersionsOptions{Limit: 2}, opts, "opts unchanged")
	calls := w.all()
	assert.Equal(t, []string{"limit=2", "limit=2&offset=2", "limit=2&offset=4"}, []string{calls[1].Query, calls[2].Query, calls[3].Query})

	p := fv.NewListByFilePaginator("5", &ListFileVersionsOptions{Limit: 3})
	pages := 0
	for p.HasMorePages() {
		pg, _, err := p.NextPage(ctx)
		require.NoError(t, err)
		pages++
		assert.NotEmpty(t, pg.Entries)
	}
	assert.Equal(t, 2, pages)

	v, _, err := fv.Get(ctx, "5", "v1", &FieldsOptions{Fields: []string{"restored_by"}})
	require.NoError(t, err)
	assert.Equal(t, "/files/5/versions/v1", w.last(t).Path)
	assert.Equal(t, "fields=restored_by", w.last(t).Query)
	assert.Equal(t, int64(629644), v.Size)
	assert.Equal(t, "12", v.RestoredBy.ID)
	assert.True(t, v.TrashedAt.IsZero())
	assert.Nil(t, v.TrashedBy)
	assert.Equal(t, "Ann", v.UploaderDisplayName)
	assert.Equal(t, "1", v.VersionNumber)

	_, err = fv.Delete(ctx, "5", "v1", &DeleteFileVersionOptions{IfMatch: "3"})
	require.NoError(t, err)
	assert.Equal(t, http.MethodDelete, w.last(t).Method)
	assert.Equal(t, "3", w.last(t).Header.Get("If-Match"))
	assert.Empty(t, w.last(t).Query)
	_, err = fv.Delete(ctx, "5", "v1", nil)
	require.NoError(t, err)
	assert.Empty(t, w.last(t).Header.Get("If-Match"))

	_, _, err = fv.Restore(ctx, "5", "v1")
	require.NoError(t, err)
	assert.Equal(t, http.MethodPut, w.last(t).Method)
	assert.JSONEq(t, `{"trashed_at":null}`, w.last(t).Body, "restore is trashed_at: null")

	nv, resp, err := fv.Promote(ctx, "5", "v1", nil)
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	assert.Equal(t, "/files/5/versions/current", w.last(t).Path)
	assert.JSONEq(t, `{"id":"v1","type":"file_version"}`, w.last(t).Body)
	assert.Equal(t, "v9", nv.ID)

	n := w.count()
	_, _, err = fv.ListByFile(ctx, "5", &ListFileVersionsOptions{Offset: 10001})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = fv.ListByFile(ctx, "5", &ListFileVersionsOptions{Limit: -1})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = fv.Get(ctx, "5", "", nil)
	assert.ErrorIs(t, err, ErrMissingID)
	_, err = fv.Delete(ctx, "", "v1", nil)
	assert.ErrorIs(t, err, ErrMissingID)
	_, _, err = fv.Restore(ctx, "5", "..")
	assert.ErrorIs(t, err, ErrInvalidID)
	_, _, err = fv.Promote(ctx, "5", "a/b", nil)
	assert.ErrorIs(t, err, ErrInvalidID)
	assert.Equal(t, n, w.count(), "nothing was sent")
}
