package refserver

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// indexGateStore is a blob store whose reads (Open) wait, once armed, until
// the gate opens or their context ends: it holds the search indexer in
// the middle of a batch. entered hears of every read that waits.
type indexGateStore struct {
	Store
	mu      sync.Mutex
	armed   bool
	gate    chan struct{}
	entered chan string
}

func newIndexGateStore() *indexGateStore {
	return &indexGateStore{Store: NewMemoryStore(), gate: make(chan struct{}), entered: make(chan string, 16)}
}

func (g *indexGateStore) arm() { g.mu.Lock(); g.armed = true; g.mu.Unlock() }

func (g *indexGateStore) Open(ctx context.Context, id string) (io.ReadSeekCloser, error) {
	g.mu.Lock()
	armed := g.armed
	g.mu.Unlock()
	if armed {
		g.entered <- id
		select {
		case <-g.gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return g.Store.Open(ctx, id)
}

// TestSearchIndexerOffTheLock: the indexer reads a new file's content with
// no lock of the state held, so other requests (a GET, an upload) go on
// while it reads; a search waits for what was written before it and then
// finds it.
func TestSearchIndexerOffTheLock(t *testing.T) {
	store := newIndexGateStore()
	e := newEnv(t, Options{Store: store})
	tok := e.s.UserToken()
	other := e.uploadFile(tok, "0", "other.pdf", []byte("x"))["id"].(string)
	store.arm()
	e.uploadFile(tok, "0", "gated.txt", []byte("needle in the content"))
	<-store.entered // the indexer is reading gated.txt's content

	resp, m := e.doJSON("GET", e.api("/files/"+other), tok, nil, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "a GET while the indexer reads: %v", m)
	e.uploadFile(tok, "0", "more.pdf", []byte("y"))

	found := make(chan []string)
	go func() {
		resp, m := e.doJSON("GET", e.api("/search?query=needle"), tok, nil, nil)
		var names []string
		if resp.StatusCode == http.StatusOK {
			for _, x := range m["entries"].([]any) {
				names = append(names, x.(map[string]any)["name"].(string))
			}
		}
		found <- names
	}()
	close(store.gate)
	require.Equal(t, []string{"gated.txt"}, <-found, "the search waited for the content written before it")
}

// TestSearchIndexerStopsOnClose: Close stops the indexer in the middle of
// a content read and waits for it (Close returns, so its goroutine ended);
// a restarted server indexes the file again.
func TestSearchIndexerStopsOnClose(t *testing.T) {
	store := newIndexGateStore()
	dir := t.TempDir()
	e := newEnv(t, Options{Store: store, DataDir: dir})
	tok := e.s.UserToken()
	store.arm()
	e.uploadFile(tok, "0", "stuck.txt", []byte("haystack"))
	<-store.entered
	require.NoError(t, e.s.Close()) // the read ends with the indexer's context

	store.mu.Lock()
	store.armed = false
	store.mu.Unlock()
	s2, err := Start(Options{Store: store, DataDir: dir, Now: e.clock.Now, PartSize: 4, ChunkedMinSize: 5})
	require.NoError(t, err)
	t.Cleanup(func() { _ = s2.Close() })
	e.s = s2
	names, _ := e.search(tok, q("query", "haystack"))
	require.Equal(t, []string{"stuck.txt"}, names)
}

// TestSearchDropsWhatChangedAfterIt: a search evaluated against an index
// that is behind a change made after the search began (its mark) leaves
// the changed item out rather than answer from its old words; one that
// catches up finds the new ones. The indexer is stopped, so that only
// searches index.
func TestSearchDropsWhatChangedAfterIt(t *testing.T) {
	e := newEnv(t, Options{})
	e.s.st.StopSearchIndexer()
	tok := e.s.UserToken()
	id := e.uploadFile(tok, "0", "alpha.txt", []byte("first words"))["id"].(string)
	gone := e.uploadFile(tok, "0", "gamma.txt", []byte("first words"))["id"].(string)
	mark, err := e.s.st.CatchUpSearch(t.Context())
	require.NoError(t, err)

	resp, m := e.doJSON("PUT", e.api("/files/"+id), tok, map[string]any{"name": "beta.txt"}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", m)
	e.deleteOK(tok, "/files/"+gone)
	resp, _ = e.do("DELETE", e.api("/files/"+gone+"/trash"), tok, nil, nil)
	require.Equal(t, http.StatusNoContent, resp.StatusCode)

	searchAt := func(word string, mark uint64) []string {
		var names []string
		var p *state.Principal
		e.s.st.View(func(tx *state.ReadTx) { p = tx.Principals[tok] })
		req := &state.SearchRequest{Query: &state.SearchNode{Op: state.OpWords, Words: []string{word}}, HasQuery: true,
			Mask: state.AllSearchFields, Trash: "all_items", Page: wire.Page{Limit: 30}}
		e.s.st.SearchAt(mark, p, req, func(tx *state.Tx, h *state.SearchHits) {
			rep, aerr := tx.SearchTx(p, req, h)
			require.Nil(t, aerr)
			for _, x := range rep.Body.(map[string]any)["entries"].([]any) {
				names = append(names, x.(map[string]any)["name"].(string))
			}
		})
		return names
	}
	require.Empty(t, searchAt("alpha", mark), "renamed after the mark: left out, not found by its old name")
	require.Empty(t, searchAt("first", mark), "renamed or purged after the mark: left out")
	require.Empty(t, searchAt("beta", mark), "not indexed yet")

	names, _ := e.search(tok, q("query", "beta"))
	require.Equal(t, []string{"beta.txt"}, names)
	names, _ = e.search(tok, q("query", "first", "trash_content", "all_items"))
	require.Equal(t, []string{"beta.txt"}, names)
	names, _ = e.search(tok, q("query", "alpha"))
	require.Empty(t, names)
}

// TestSearchReadsItsWritesConcurrently: clients that upload and search at
// once each find what they just uploaded, while the indexer runs (and,
// under -race, the index's locks are checked).
func TestSearchReadsItsWritesConcurrently(t *testing.T) {
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	var wg sync.WaitGroup
	for c := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 15 {
				word := fmt.Sprintf("c%dword%d", c, i)
				name := fmt.Sprintf("c%d-%d.txt", c, i)
				body, ct := multipartBody(t, fmt.Sprintf(`{"name":%q,"parent":{"id":"0"}}`, name), []byte("text "+word))
				resp, b := e.do("POST", e.upload("/files/content"), tok, body, hdr{"Content-Type": ct})
				if resp.StatusCode != http.StatusCreated {
					t.Errorf("upload %s: %d %s", name, resp.StatusCode, b)
					return
				}
				resp, m := e.doJSON("GET", e.api("/search?query="+word+"&content_types=file_content"), tok, nil, nil)
				if resp.StatusCode != http.StatusOK || m["total_count"] != float64(1) {
					t.Errorf("search %s right after its upload: %d %v", word, resp.StatusCode, m)
					return
				}
			}
		}()
	}
	wg.Wait()
	names, _ := e.search(tok, q("query", "text", "limit", "100"))
	require.Len(t, names, 45)
	require.True(t, strings.HasSuffix(names[0], ".txt"))
}

// TestSearchByStampsAnswersAsTheWalk: the admin's search ranked by the
// index's stamps (state.rankByStamps: no filter but trash_content) answers
// every page, order and trash mode as the walk of every hit does (the same
// search with ancestor_folder_ids=0, which keeps every item but is ranked
// by the walk), through random uploads, renames, moves, trashes, restores,
// purges and clock steps (ties of a second among them), with and without
// an index delay (changes queued and not indexed).
func TestSearchByStampsAnswersAsTheWalk(t *testing.T) {
	for _, delay := range []time.Duration{0, 2 * time.Second} {
		t.Run(delay.String(), func(t *testing.T) {
			e := newEnv(t, Options{SearchIndexDelay: delay})
			tok := e.s.AdminToken()
			rng := rand.New(rand.NewPCG(3, uint64(delay)))
			words := []string{"alpha", "beta", "gamma", "delta"}
			name := func() string {
				return fmt.Sprintf("%s %s-%d.txt", words[rng.IntN(len(words))], words[rng.IntN(len(words))], rng.IntN(1000))
			}
			folders := []string{"0"}
			var files []string
			check := func() {
				t.Helper()
				for _, query := range []string{"alpha", "bet", `"alpha beta"`, "gamma OR delta", "alpha AND NOT beta"} {
					for _, extra := range [][]string{{}, {"sort", "modified_at"}, {"sort", "modified_at", "direction", "ASC"},
						{"trash_content", "trashed_only"}, {"trash_content", "all_items"}, {"offset", "3", "limit", "4"}, {"limit", "1"}} {
						v := q(append([]string{"query", query}, extra...)...)
						_, fast := e.search(tok, v)
						v.Set("ancestor_folder_ids", "0")
						_, walk := e.search(tok, v)
						require.Equal(t, walk["total_count"], fast["total_count"], "%s", v.Encode())
						require.Equal(t, entryIDs(walk["entries"].([]any)), entryIDs(fast["entries"].([]any)), "%s", v.Encode())
					}
				}
			}
			for step := range 300 {
				parent := folders[rng.IntN(len(folders))]
				switch op := rng.IntN(10); {
				case op < 1:
					folders = append(folders, e.createFolder(tok, parent, name())["id"].(string))
				case op < 4 || len(files) == 0:
					files = append(files, e.uploadFile(tok, parent, name(), []byte(words[rng.IntN(len(words))]))["id"].(string))
				case op < 5:
					e.doJSON("PUT", e.api("/files/"+files[rng.IntN(len(files))]), tok, map[string]any{"name": name(), "parent": map[string]any{"id": parent}}, nil)
				case op < 6:
					e.do("DELETE", e.api("/files/"+files[rng.IntN(len(files))]), tok, nil, nil)
				case op < 7:
					e.doJSON("POST", e.api("/files/"+files[rng.IntN(len(files))]), tok, map[string]any{}, nil)
				case op < 8 && rng.IntN(4) == 0:
					e.do("DELETE", e.api("/files/"+files[rng.IntN(len(files))]+"/trash"), tok, nil, nil)
				default:
					e.clock.Advance(time.Duration(rng.IntN(3)) * time.Second)
				}
				if step%30 == 29 {
					check()
				}
			}
		})
	}
}
