package refserver

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With sort=size, folders come before files in either direction: the
// service sorts items by type first (folders, files, web links) and by the
// sort key second (GET /folders/{id}/items, parameter sort). How folders
// order among themselves by size is not documented.
func TestSortBySizeKeepsFoldersFirst(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	top := e.createFolder(tok, "0", "sized")["id"].(string)
	big := e.createFolder(tok, top, "big folder")["id"].(string)
	e.uploadFile(tok, big, "inside.bin", bytes.Repeat([]byte("x"), 500))
	e.createFolder(tok, top, "empty folder")
	e.uploadFile(tok, top, "small.bin", []byte("x"))
	e.uploadFile(tok, top, "large.bin", bytes.Repeat([]byte("x"), 100))
	for dir, files := range map[string][]string{"DESC": {"large.bin", "small.bin"}, "ASC": {"small.bin", "large.bin"}} {
		resp, m := e.doJSON("GET", e.api("/folders/"+top+"/items?sort=size&direction="+dir), tok, nil, nil)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		var types, names []string
		for _, x := range m["entries"].([]any) {
			types = append(types, x.(map[string]any)["type"].(string))
			names = append(names, x.(map[string]any)["name"].(string))
		}
		assert.Equal(t, []string{"folder", "folder", "file", "file"}, types, dir)
		assert.Equal(t, files, names[2:], dir)
	}
}
