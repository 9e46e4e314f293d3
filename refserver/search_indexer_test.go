package refserver

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

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
