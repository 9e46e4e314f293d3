package refserver

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recursiveFolderSize is how a folder's size was computed before the
// folder indexes kept it: the current sizes of the files it lists, plus
// the sizes of the folders it lists, walked down the tree on every call.
// The maintained sizes are checked against it.
func recursiveFolderSize(tx *state.Tx, folderID string, rootOwner *state.User) int64 {
	var n int64
	for _, it := range tx.Children(folderID, rootOwner) {
		switch it.Typ {
		case "file":
			n += it.Current().Blob.Size
		case "folder":
			n += recursiveFolderSize(tx, it.ID, nil)
		}
	}
	return n
}

// checkFolderSizes compares every folder's maintained size (and every
// owner's root's) with the recursive sum.
func checkFolderSizes(t *testing.T, s *Server, step int) {
	t.Helper()
	tx, end := beginTx(s.st)
	defer end()
	owners := map[*state.User]bool{}
	for _, it := range tx.Items.All() {
		if it.Owner != nil {
			owners[it.Owner] = true
		}
		if it.Typ != "folder" {
			continue
		}
		want := recursiveFolderSize(tx, it.ID, nil)
		require.Equal(t, want, tx.Folders.Index(it.ID, nil).Size(), "step %d: size of folder %s (trashed %v)", step, it.ID, it.Trashed())
	}
	for u := range owners {
		require.Equal(t, recursiveFolderSize(tx, state.RootID, u), tx.Folders.Index(state.RootID, u).Size(), "step %d: size of %s's root", step, u.ID)
	}
}

// TestFolderSizesAreKept runs random size-changing operations through the
// API — uploads, new versions, version promotions, deletions and
// restores, copies of files and folders, moves, trashing, restores (with
// moves), purges, deletions, web links, a transfer of a user's content —
// and after each checks every folder's maintained size against the
// recursive sum, and the sizes GET /folders/{id} and GET /folders/0 show;
// then a server restored from its directory has the same sizes.
func TestFolderSizesAreKept(t *testing.T) {
	t.Parallel()
	opts := Options{DataDir: t.TempDir()}
	e := newEnv(t, opts)
	admin, user := e.s.AdminToken(), e.s.UserToken()
	_, me := e.doJSON("GET", e.api("/users/me"), admin, nil, nil)
	adminID := me["id"].(string)
	rng := rand.New(rand.NewPCG(3, 4))
	folders := map[string][]string{admin: {"0"}, user: {"0"}}
	var all []map[string]any
	var versioned []map[string]any // files given a new version
	name := func() string { return fmt.Sprintf("n%d", rng.IntN(40)) }
	pick := func() map[string]any { return all[rng.IntN(len(all))] }
	ref := func(it map[string]any) string { return "/" + it["type"].(string) + "s/" + it["id"].(string) }
	data := func() []byte { return []byte(strings.Repeat("z", rng.IntN(300))) }
	done := map[string]int{} // successful operations by kind
	ok := func(kind string, resp *http.Response) {
		if resp.StatusCode < 300 {
			done[kind]++
		}
	}
	for step := range 1500 {
		tok := admin
		if rng.IntN(4) == 0 {
			tok = user
		}
		parent := folders[tok][rng.IntN(len(folders[tok]))]
		switch op := rng.IntN(20); {
		case op < 3:
			resp, m := e.doJSON("POST", e.api("/folders"), tok, map[string]any{"name": name(), "parent": map[string]any{"id": parent}}, nil)
			if resp.StatusCode == 201 {
				folders[tok] = append(folders[tok], m["id"].(string))
				all = append(all, m)
			}
		case op < 7:
			resp, m := e.uploadRaw(tok, e.upload("/files/content"), fmt.Sprintf(`{"name":%q,"parent":{"id":%q}}`, name(), parent), data(), nil)
			ok("upload", resp)
			if resp.StatusCode == 201 {
				all = append(all, m["entries"].([]any)[0].(map[string]any))
			}
		case op < 8:
			resp, m := e.doJSON("POST", e.api("/web_links"), tok, map[string]any{"url": "https://example.com", "name": name(), "parent": map[string]any{"id": parent}}, nil)
			if resp.StatusCode == 201 || resp.StatusCode == 200 {
				all = append(all, m)
			}
		case len(all) == 0:
		case op < 10:
			if it := pick(); it["type"] == "file" {
				resp, _ := e.uploadRaw(admin, e.upload("/files/"+it["id"].(string)+"/content"), `{}`, data(), nil)
				ok("new version", resp)
				if resp.StatusCode < 300 {
					versioned = append(versioned, it)
				}
			}
		case op < 11:
			// Promote, delete or restore a version of a file.
			if len(versioned) == 0 {
				break
			}
			it := versioned[rng.IntN(len(versioned))]
			_, vs := e.doJSON("GET", e.api(ref(it)+"/versions"), admin, nil, nil)
			entries, _ := vs["entries"].([]any)
			if len(entries) == 0 {
				break
			}
			v := entries[rng.IntN(len(entries))].(map[string]any)["id"].(string)
			switch rng.IntN(3) {
			case 0:
				resp, _ := e.doJSON("POST", e.api(ref(it)+"/versions/current"), admin, map[string]any{"type": "file_version", "id": v}, nil)
				ok("promote", resp)
			case 1:
				resp, _ := e.do("DELETE", e.api(ref(it)+"/versions/"+v), admin, nil, nil)
				ok("version delete", resp)
			default:
				resp, _ := e.doJSON("PUT", e.api(ref(it)+"/versions/"+v), admin, map[string]any{"trashed_at": nil}, nil)
				ok("version restore", resp)
			}
		case op < 13:
			it := pick()
			if it["type"] == "web_link" {
				break
			}
			resp, m := e.doJSON("POST", e.api(ref(it)+"/copy"), admin, map[string]any{"name": name(), "parent": map[string]any{"id": parent}}, nil)
			ok(it["type"].(string)+" copy", resp)
			if resp.StatusCode == 201 {
				all = append(all, m)
				if m["type"] == "folder" {
					folders[tok] = append(folders[tok], m["id"].(string))
				}
			}
		case op < 15:
			resp, _ := e.doJSON("PUT", e.api(ref(pick())), admin, map[string]any{"parent": map[string]any{"id": parent}}, nil)
			ok("move", resp)
		case op < 17:
			resp, _ := e.do("DELETE", e.api(ref(pick())+"?recursive=true"), admin, nil, nil)
			ok("trash", resp)
		case op < 18:
			body := map[string]any{}
			if rng.IntN(2) == 0 {
				body["name"] = name()
			}
			if rng.IntN(2) == 0 {
				body["parent"] = map[string]any{"id": parent}
			}
			resp, _ := e.doJSON("POST", e.api(ref(pick())), admin, body, nil)
			ok("restore", resp)
		case op < 19:
			resp, _ := e.do("DELETE", e.api(ref(pick())+"/trash"), admin, nil, nil)
			ok("purge", resp)
		case rng.IntN(10) == 0:
			// The managed user's content goes to the admin, in a new folder.
			resp, _ := e.doJSON("PUT", e.api("/users/"+e.s.UserID()+"/folders/0"), admin, map[string]any{"owned_by": map[string]any{"id": adminID}}, nil)
			ok("transfer", resp)
			if resp.StatusCode == 200 {
				folders[user] = []string{"0"}
			}
		}
		checkFolderSizes(t, e.s, step)
		if step%25 == 24 {
			_, root := e.doJSON("GET", e.api("/folders/0"), admin, nil, nil)
			tx, end := beginTx(e.s.st)
			want := recursiveFolderSize(tx, state.RootID, tx.Principals[admin].User)
			end()
			assert.EqualValues(t, want, root["size"], "step %d: GET /folders/0", step)
			f := folders[admin][rng.IntN(len(folders[admin]))]
			if f == "0" {
				continue
			}
			if resp, m := e.doJSON("GET", e.api("/folders/"+f), admin, nil, nil); resp.StatusCode == 200 {
				tx, end := beginTx(e.s.st)
				want := recursiveFolderSize(tx, f, nil)
				end()
				assert.EqualValues(t, want, m["size"], "step %d: GET /folders/%s", step, f)
			}
		}
	}
	tx, end := beginTx(e.s.st)
	total := recursiveFolderSize(tx, state.RootID, tx.Principals[admin].User)
	end()
	t.Logf("%d items made, admin's root %d bytes; done: %v", len(all), total, done)
	assert.Positive(t, total, "the steps left files in the tree")

	before := folderSizes(e.s)
	require.NoError(t, e.s.Close())
	e2 := newEnv(t, opts)
	require.True(t, e2.s.Restored())
	checkFolderSizes(t, e2.s, -1)
	assert.Equal(t, before, folderSizes(e2.s), "sizes after a restore")
}

// folderSizes are the sizes of every index but the trash's, by its key
// (folder id, and owner id for the roots).
func folderSizes(s *Server) map[string]int64 {
	tx, end := beginTx(s.st)
	defer end()
	out := map[string]int64{}
	for key, fx := range tx.Folders.M {
		if key.Folder == state.TrashKey {
			continue
		}
		k := key.Folder
		if key.Owner != nil {
			k += "/" + key.Owner.ID
		}
		out[k] = fx.Size()
	}
	return out
}
