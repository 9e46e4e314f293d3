package refserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// plainStore hides the directory store's Assembler methods: sessions keep
// each part as a blob of its own.
type plainStore struct{ Store }

// TestPersistedSessionContent: parts written into an upload session's
// content survive a crash, and the commit after the restart hashes them
// and makes the file, both with the directory store (one assembly file)
// and with a store that is not an Assembler (a blob per part). An assembly
// file no session names is swept at start.
func TestPersistedSessionContent(t *testing.T) {
	t.Parallel()
	for name, plain := range map[string]bool{"assembler": false, "blob per part": true} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			opts := func() Options {
				o := Options{DataDir: dir, PartSize: 4}
				if plain {
					st, err := NewDirStore(dir)
					require.NoError(t, err)
					o.Store = plainStore{st}
				}
				return o
			}
			e := newEnv(t, opts())
			U := e.s.UserToken()
			data := []byte("0123456789")
			sess := e.createSession(U, "0", "resumed.bin", len(data))
			url := endpoints(sess)["upload_part"]
			var parts []any
			for _, off := range []int{4, 0} { // out of order
				resp, m := e.putPart(U, url, data[off:off+4], off, len(data), nil)
				require.Equal(t, 200, resp.StatusCode, "%v", m)
				parts = append(parts, m["part"])
			}
			orphan := filepath.Join(dir, blob.AssemblyFile(strings.Repeat("cd", 16)))
			require.NoError(t, os.WriteFile(orphan, []byte("left by a session that ended"), 0o600))
			crash(t, e.s)

			e2 := newEnv(t, opts())
			if !plain { // the sweep knows the directory store's files
				assert.NoFileExists(t, orphan)
			}
			sid := sess["id"].(string)
			resp, m := e2.putPart(U, e2.upload("/files/upload_sessions/"+sid), data[8:], 8, len(data), nil)
			require.Equal(t, 200, resp.StatusCode, "%v", m)
			parts = append(parts, m["part"])
			commit := e2.upload("/files/upload_sessions/" + sid + "/commit")
			resp, m = e2.doJSON("POST", commit, U, map[string]any{"parts": parts}, hdr{"Digest": digestOf([]byte("wrong"))})
			requireAPIError(t, resp, m, 400, wire.CodeDigestMismatch)
			resp, m = e2.doJSON("POST", commit, U, map[string]any{"parts": parts}, hdr{"Digest": digestOf(data)})
			require.Equal(t, 201, resp.StatusCode, "%v", m)
			f := m["entries"].([]any)[0].(map[string]any)
			assert.Equal(t, sha1Hex(data), f["sha1"])
			resp, _ = e2.do("GET", e2.api("/files/"+f["id"].(string)+"/content"), U, nil, nil)
			resp, body := e2.do("GET", resp.Header.Get("Location"), "", nil, nil)
			require.Equal(t, 200, resp.StatusCode)
			assert.Equal(t, string(data), string(body))
			leftovers, err := filepath.Glob(filepath.Join(dir, "assembly-*.tmp"))
			require.NoError(t, err)
			if !plain {
				assert.Empty(t, leftovers, "the content became the file's blob")
			}
		})
	}
}
