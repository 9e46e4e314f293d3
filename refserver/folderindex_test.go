package refserver

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFolderIndexMatchesScan runs random creations, new versions (with
// renames), trashing, restores (with renames and moves), purges, web link
// moves and clock steps through the API, and after each step checks every
// folder's index against a scan of all items sorted the plain way: the same
// members, the same name lookups, and the same order for every sort key,
// both directions, at every offset.
func TestFolderIndexMatchesScan(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.AdminToken()
	rng := rand.New(rand.NewPCG(1, 2))
	folders := []string{"0"}
	var all []map[string]any
	names := []string{"a", "B", "b2", "Ärger", "ärger2", "K", "zeta", "x.txt", "Straße", "ſ"}
	name := func() string { return fmt.Sprintf("%s-%d", names[rng.IntN(len(names))], rng.IntN(8)) }
	pick := func() map[string]any { return all[rng.IntN(len(all))] }
	for step := range 400 {
		parent := folders[rng.IntN(len(folders))]
		switch op := rng.IntN(10); {
		case op < 3:
			resp, m := e.doJSON("POST", e.api("/folders"), tok, map[string]any{"name": name(), "parent": map[string]any{"id": parent}}, nil)
			if resp.StatusCode == 201 {
				folders = append(folders, m["id"].(string))
				all = append(all, m)
			}
		case op < 5:
			resp, m := e.uploadRaw(tok, e.upload("/files/content"), fmt.Sprintf(`{"name":%q,"parent":{"id":%q}}`, name(), parent), []byte(strings.Repeat("x", rng.IntN(50))), nil)
			if resp.StatusCode == 201 {
				all = append(all, m["entries"].([]any)[0].(map[string]any))
			}
		case op < 6:
			resp, m := e.doJSON("POST", e.api("/web_links"), tok, map[string]any{"url": "https://example.com", "name": name(), "parent": map[string]any{"id": parent}}, nil)
			if resp.StatusCode == 200 {
				all = append(all, m)
			}
		case op < 7 && len(all) > 0:
			it := pick()
			if it["type"] == "file" {
				e.uploadRaw(tok, e.upload("/files/"+it["id"].(string)+"/content"), fmt.Sprintf(`{"name":%q}`, name()), []byte(strings.Repeat("y", rng.IntN(80))), nil)
			} else if it["type"] == "web_link" {
				e.doJSON("PUT", e.api("/web_links/"+it["id"].(string)), tok, map[string]any{"name": name(), "parent": map[string]any{"id": parent}}, nil)
			}
		case op < 8 && len(all) > 0:
			it := pick()
			e.do("DELETE", e.api("/"+it["type"].(string)+"s/"+it["id"].(string)+"?recursive=true"), tok, nil, nil)
		case op < 9 && len(all) > 0:
			it := pick()
			body := map[string]any{}
			if rng.IntN(2) == 0 {
				body["name"] = name()
			}
			if rng.IntN(2) == 0 {
				body["parent"] = map[string]any{"id": parent}
			}
			e.doJSON("POST", e.api("/"+it["type"].(string)+"s/"+it["id"].(string)), tok, body, nil)
		case len(all) > 0 && rng.IntN(3) == 0:
			it := pick()
			e.do("DELETE", e.api("/"+it["type"].(string)+"s/"+it["id"].(string)+"/trash"), tok, nil, nil)
		default:
			e.clock.Advance(time.Duration(rng.IntN(3)) * time.Second)
		}
		if step%20 == 19 {
			checkFolderIndexes(t, e.s)
		}
	}
	checkFolderIndexes(t, e.s)
	tx, end := beginTx(e.s.st)
	indexed := 0
	for _, fx := range tx.Folders.M {
		indexed += fx.Len()
	}
	end()
	t.Logf("%d items created, %d folders, %d listed", len(all), len(folders), indexed)
	assert.Greater(t, indexed, 100, "the steps built a real tree")
}

// checkFolderIndexes compares every folder index with a scan of the items.
func checkFolderIndexes(t *testing.T, s *Server) {
	t.Helper()
	tx, end := beginTx(s.st)
	defer end()
	scan := map[state.IndexKey][]*state.Item{}
	for _, it := range tx.Items.All() {
		if key, ok := state.Placement(it); ok {
			scan[key] = append(scan[key], it)
		}
	}
	require.Len(t, tx.Folders.M, len(scan), "one index per folder that lists something")
	for key, items := range scan {
		fx := tx.Folders.M[key]
		require.NotNil(t, fx, "index of %v", key)
		require.Equal(t, len(items), fx.Len(), "count of %v", key)
		for _, it := range items {
			var want []*state.Item
			for _, o := range items {
				if strings.EqualFold(o.Name, it.Name) {
					want = append(want, o)
				}
			}
			assert.ElementsMatch(t, want, slices.Collect(fx.Named(strings.ToUpper(it.Name))), "same name as %q", it.Name)
		}
		for k, sortKey := range state.SortKeys {
			for _, desc := range []bool{false, true} {
				want := append([]*state.Item(nil), items...)
				sortItems(want, sortKey, desc)
				assert.Equal(t, itemIDs(want), itemIDs(fx.Page(k, desc, 0, len(items))), "%v by %s desc=%v", key, sortKey, desc)
				for start := 0; start < len(items); start += 3 {
					end := min(start+4, len(items)+1)
					assert.Equal(t, itemIDs(want[start:min(end, len(items))]), itemIDs(fx.Page(k, desc, start, end)), "%v by %s desc=%v [%d,%d)", key, sortKey, desc, start, end)
				}
			}
		}
	}
	// The trash across owners holds what the owners' trash indexes hold.
	var trashed []*state.Item
	for key, items := range scan {
		if key.Folder == state.TrashKey {
			trashed = append(trashed, items...)
		}
	}
	require.Equal(t, len(trashed), tx.Folders.TrashAll.Len(), "trash across owners")
	for k, sortKey := range state.SortKeys {
		for _, desc := range []bool{false, true} {
			want := append([]*state.Item(nil), trashed...)
			sortItems(want, sortKey, desc)
			assert.Equal(t, itemIDs(want), itemIDs(tx.Folders.TrashAll.Page(k, desc, 0, len(want))), "all trash by %s desc=%v", sortKey, desc)
		}
	}
}

func itemIDs(items []*state.Item) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.ID
	}
	return out
}

func TestFoldName(t *testing.T) {
	t.Parallel()
	words := []string{"a", "A", "k", "K", "\u212a", "s", "S", "\u017f", "Straße", "STRASSE", "ß", "ẞ", "é", "É", "Σ", "σ", "ς", "x.TXT", "x.txt", "İ", "i", "ı", "I", "Ǆ", "ǅ", "ǆ"}
	for _, a := range words {
		for _, b := range words {
			assert.Equal(t, strings.EqualFold(a, b), state.FoldName(a) == state.FoldName(b), "%q %q", a, b)
		}
	}
}
