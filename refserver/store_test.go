package refserver

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStores(t *testing.T) {
	t.Parallel()
	dir, err := NewDirStore(t.TempDir())
	require.NoError(t, err)
	for name, st := range map[string]Store{"memory": NewMemoryStore(), "dir": dir} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			info, err := st.Put(ctx, strings.NewReader("hello world"))
			require.NoError(t, err)
			assert.EqualValues(t, 11, info.Size)
			assert.Equal(t, sha1Hex([]byte("hello world")), info.SHA1)
			rc, err := st.Open(ctx, info.ID)
			require.NoError(t, err)
			_, err = rc.Seek(6, io.SeekStart)
			require.NoError(t, err)
			b, err := io.ReadAll(rc)
			require.NoError(t, err)
			assert.Equal(t, "world", string(b))
			require.NoError(t, rc.Close())
			require.NoError(t, st.Delete(ctx, info.ID))
			_, err = st.Open(ctx, info.ID)
			assert.True(t, errors.Is(err, ErrBlobNotFound), "%v", err)
			require.NoError(t, st.Delete(ctx, info.ID))
			_, err = st.Open(ctx, "../../etc/passwd")
			assert.True(t, errors.Is(err, ErrBlobNotFound))

			cctx, cancel := context.WithCancel(ctx)
			cancel()
			_, err = st.Put(cctx, strings.NewReader("x"))
			assert.ErrorIs(t, err, context.Canceled)
		})
	}
}

func TestDirStoreServer(t *testing.T) {
	t.Parallel()
	st, err := NewDirStore(t.TempDir())
	require.NoError(t, err)
	e := newEnv(t, Options{Store: st})
	tok := e.s.UserToken()
	data := []byte("0123456789")
	sess := e.createSession(tok, "0", "disk.bin", len(data))
	parts := e.uploadAllParts(tok, sess, data)
	resp, m := e.doJSON("POST", endpoints(sess)["commit"], tok, map[string]any{"parts": parts}, hdr{"Digest": digestOf(data)})
	require.Equal(t, 201, resp.StatusCode, "%v", m)
	id := m["entries"].([]any)[0].(map[string]any)["id"].(string)
	resp, _ = e.do("GET", e.api("/files/"+id+"/content"), tok, nil, nil)
	resp, b := e.do("GET", resp.Header.Get("Location"), "", nil, hdr{"Range": "bytes=3-"})
	assert.Equal(t, 206, resp.StatusCode)
	assert.Equal(t, "3456789", string(b))
}
