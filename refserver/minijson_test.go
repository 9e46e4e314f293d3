package refserver

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMiniJSONMatchesMap: the mini record written directly is byte for
// byte what json.Marshal gives for s.mini, for files, folders and web links
// with names full of characters JSON escapes.
func TestMiniJSONMatchesMap(t *testing.T) {
	t.Parallel()
	s, err := New(Options{})
	require.NoError(t, err)
	tx, end := beginTx(s.st)
	defer end()
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []string{"a", "Z", "\"", "\\", "<", ">", "&", "\n", "\t", "\x01", "\x7f", "é", "\u2028", "\u2029", "😀", "\xff", "\xe2\x82", "/", " "}
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 2000 {
		name := ""
		for range rng.IntN(12) {
			name += alphabet[rng.IntN(len(alphabet))]
		}
		it := &state.Item{ID: "12" + name[:0], Name: name, Seq: i, CreatedAt: now}
		switch i % 3 {
		case 0:
			it.Typ = "file"
			sha1 := "ab" + name // a SHA1 of another form (held as it is)
			if i%2 == 0 {
				sha1 = fmt.Sprintf("%040x", i) // held as bytes
			}
			it.Versions = []*state.Version{state.NewVersion("77", blob.RefOf(BlobInfo{SHA1: sha1}), time.Time{}, nil)}
		case 1:
			it.Typ = "folder"
		default:
			it.Typ = "web_link"
			it.SetURL("https://x.test/?q=" + name)
		}
		want, err := json.Marshal(tx.Mini(it))
		require.NoError(t, err)
		assert.Equal(t, string(want), string(tx.MiniJSON(it)), "%q", name)
	}
}

// TestWritePageMatchesWriteJSON: a page written by writePage is byte for
// byte the page writeJSON writes, with raw, map and no entries.
func TestWritePageMatchesWriteJSON(t *testing.T) {
	t.Parallel()
	s, err := New(Options{})
	require.NoError(t, err)
	tx, end := beginTx(s.st)
	defer end()
	f := &state.Item{Typ: "folder", ID: "5", Name: "<a & b>"}
	pages := []map[string]any{
		{"entries": []any{tx.MiniJSON(f), map[string]any{"id": "7", "type": "file", "name": "x\u2028"}}, "limit": 2, "next_marker": nil, "order": []any{map[string]any{"by": "name"}}},
		{"entries": []any{}, "limit": 100, "offset": 0, "total_count": 0},
		{"entries": []any{tx.MiniJSON(f)}},
		{"entries": json.RawMessage(`[` + string(tx.MiniJSON(f)) + `,` + string(tx.MiniJSON(f)) + `]`), "limit": 2}, // a listing's page
		{"entries": json.RawMessage(`[]`), "limit": 100, "offset": 0, "total_count": 0},
	}
	for _, page := range pages {
		a, b := httptest.NewRecorder(), httptest.NewRecorder()
		writeJSON(a, 200, page)
		writePage(b, 200, page)
		assert.Equal(t, a.Body.String(), b.Body.String())
		assert.Equal(t, a.Header(), b.Header())
	}
}
