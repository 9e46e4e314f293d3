package filebody

import (
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSectionSentByNetHTTP: a section of a file sent as a request body
// arrives whole and exact (through sendfile where the platform has it),
// and reading it directly stops at its end too.
func TestSectionSentByNetHTTP(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "f")
	data := make([]byte, 1<<20)
	for i := range data {
		data[i] = byte(i * 7)
	}
	require.NoError(t, os.WriteFile(path, data, 0o600))

	got := make(chan []byte, 1)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- b
	})}
	go srv.Serve(ln)
	defer srv.Close()

	f, err := os.Open(path)
	require.NoError(t, err)
	body, err := New(f, 4096, 300_000)
	require.NoError(t, err)
	req, err := http.NewRequest(http.MethodPut, "http://"+ln.Addr().String(), body)
	require.NoError(t, err)
	req.ContentLength = 300_000
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, data[4096:4096+300_000], <-got)

	f, err = os.Open(path)
	require.NoError(t, err)
	body, err = New(f, 10, 100)
	require.NoError(t, err)
	b, err := io.ReadAll(body)
	require.NoError(t, err)
	assert.Equal(t, data[10:110], b)
	require.NoError(t, body.Close())
}
