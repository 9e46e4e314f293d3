package refserver

import (
	"net/http"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// idOf is the id of the file carrying instance name (c1..c7).
func (q *queryEnv) idOf(name string) string {
	q.t.Helper()
	for id, n := range q.names {
		if n == name {
			return id
		}
	}
	q.t.Fatalf("no instance %s", name)
	return ""
}

// queryNames runs an unfiltered query under ancestor as the user and
// returns the instance names found, sorted.
func (q *queryEnv) queryNames(ancestor string) []string {
	q.t.Helper()
	names, _ := q.run(q.user, map[string]any{"ancestor_folder_id": ancestor}, 100)
	sort.Strings(names)
	return names
}

// instanceID is the $id of the contract instance on a file.
func (q *queryEnv) instanceID(fileID string) string {
	q.t.Helper()
	tx, end := beginTx(q.s.st)
	defer end()
	return tx.Template(q.scope, "contract").Instances[fileID].ID
}

// TestMetadataReadsSkipTrash: an item in the trash, trashed itself or with
// its folder, is no query result, its instances are not found through the
// item endpoints (404 not_found, nothing changes) and the template of its
// instance is not listed; restored, it is back everywhere.
func TestMetadataReadsSkipTrash(t *testing.T) {
	t.Parallel()
	q := newQueryEnv(t)
	c1, c5 := q.idOf("c1"), q.idOf("c5")
	tx, end := beginTx(q.s.st)
	sub := tx.Items.At("file", c5).ParentID
	end()
	in1 := q.instanceID(c1)
	require.Equal(t, []string{"c1", "c2", "c3", "c4", "c5", "c6"}, q.queryNames("0"))

	q.deleteOK(q.user, "/files/"+c1)
	resp, _ := q.do("DELETE", q.api("/folders/"+sub+"?recursive=true"), q.user, nil, nil)
	require.Equal(t, http.StatusNoContent, resp.StatusCode)

	assert.Equal(t, []string{"c2", "c3", "c4", "c6"}, q.queryNames("0"))
	assert.Equal(t, []string{"c2", "c3", "c4"}, q.queryNames(q.deals))
	resp, m := q.doJSON("GET", q.api("/metadata_templates?metadata_instance_id="+in1), q.user, nil, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	assert.Empty(t, m["entries"], "the instance of a trashed file names no template")

	before := mdSnapshot(q.s)
	for _, id := range []string{c1, c5} { // trashed itself; in a trashed folder
		url := q.instanceURL("file", id, "enterprise", "contract")
		for _, c := range []struct {
			method, url string
			body        any
		}{
			{"GET", q.api("/files/" + id + "/metadata"), nil},
			{"GET", url, nil},
			{"POST", url, map[string]any{"customer": "x"}},
			{"DELETE", url, nil},
		} {
			resp, m := q.doJSON(c.method, c.url, q.user, c.body, nil)
			requireAPIError(t, resp, m, http.StatusNotFound, "not_found")
		}
		resp, m := q.patch(url, q.user, []any{map[string]any{"op": "add", "path": "/customer", "value": "y"}})
		requireAPIError(t, resp, m, http.StatusNotFound, "not_found")
	}
	assert.Equal(t, before, mdSnapshot(q.s))

	resp, m = q.doJSON("POST", q.api("/files/"+c1), q.user, nil, nil)
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", m)
	resp, m = q.doJSON("POST", q.api("/folders/"+sub), q.user, nil, nil)
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", m)
	assert.Equal(t, []string{"c1", "c2", "c3", "c4", "c5", "c6"}, q.queryNames("0"))
	_, m = q.doJSON("GET", q.api("/metadata_templates?metadata_instance_id="+in1), q.user, nil, nil)
	assert.Len(t, m["entries"], 1)
}
