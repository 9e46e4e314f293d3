package refserver

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRequestLogIsABoundedRing: the log keeps the newest RequestLogSize
// requests, oldest first, counts what it dropped, keeps nothing when the
// size is negative and DefaultRequestLogSize when it is 0.
func TestRequestLogIsABoundedRing(t *testing.T) {
	t.Parallel()
	get := func(e *env, n int) {
		for i := range n {
			e.do("GET", e.api(fmt.Sprintf("/folders/0?i=%d", i)), e.s.UserToken(), nil, nil)
		}
	}
	e := newEnv(t, Options{RequestLogSize: 5})
	get(e, 8)
	recs := e.s.Requests()
	require.Len(t, recs, 5)
	for i, r := range recs {
		assert.Equal(t, fmt.Sprintf("i=%d", i+3), r.RawQuery, "oldest first")
		assert.Equal(t, http.StatusOK, r.Status)
	}
	assert.EqualValues(t, 3, e.s.RequestsDropped())
	e.s.ResetRequests()
	assert.Empty(t, e.s.Requests())
	get(e, 2)
	assert.Len(t, e.s.Requests(), 2)

	none := newEnv(t, Options{RequestLogSize: -1})
	get(none, 3)
	assert.Empty(t, none.s.Requests())
	assert.EqualValues(t, 3, none.s.RequestsDropped())

	def := newEnv(t, Options{})
	assert.Equal(t, DefaultRequestLogSize, def.s.requests.size)
}

// TestRequestLogRingUnit: the ring's order across wrap-arounds.
func TestRequestLogRingUnit(t *testing.T) {
	t.Parallel()
	l := newRequestLog(3)
	for i := range 10 {
		l.add(&RequestRecord{Path: fmt.Sprint(i)})
		recs := l.records()
		require.Len(t, recs, min(i+1, 3))
		assert.Equal(t, fmt.Sprint(i), recs[len(recs)-1].Path)
		assert.Equal(t, fmt.Sprint(max(0, i-2)), recs[0].Path)
	}
	l.reset()
	assert.Empty(t, l.records())
	l.add(&RequestRecord{Path: "a"})
	assert.Equal(t, "a", l.records()[0].Path)
}

// rawUpload opens a connection to the upload host and sends the headers of
// a multipart upload of declared length n.
func rawUpload(t *testing.T, e *env, n int) (net.Conn, string) {
	t.Helper()
	u, err := url.Parse(e.upload("/files/content"))
	require.NoError(t, err)
	conn, err := net.Dial("tcp", u.Host)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	boundary := "xyzzy"
	_, err = fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: multipart/form-data; boundary=%s\r\nContent-Length: %d\r\n\r\n",
		u.RequestURI(), u.Host, e.s.UserToken(), boundary, n)
	require.NoError(t, err)
	return conn, boundary
}

// TestStalledBodyIsCutAndFlowingBodyIsNot: a body that stops sending for
// BodyIdleTimeout is cut (400, nothing stored); one that keeps sending, for
// longer than BodyIdleTimeout in all, is taken whole.
func TestStalledBodyIsCutAndFlowingBodyIsNot(t *testing.T) {
	t.Parallel()
	// The idle timeout is generous against the gaps the flowing body
	// leaves (8×), so that a loaded CI machine, which may be slow to
	// schedule the handler's next read, does not cut it.
	e := newEnv(t, Options{BodyIdleTimeout: 2 * time.Second})
	attrs := `{"name":"slow.txt","parent":{"id":"0"}}`
	head := "--xyzzy\r\nContent-Disposition: form-data; name=\"attributes\"\r\n\r\n" + attrs +
		"\r\n--xyzzy\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f\"\r\n\r\n"
	tail := "\r\n--xyzzy--\r\n"
	content := strings.Repeat("z", 120)

	t.Run("stalled", func(t *testing.T) {
		blobs := blobCount(t, e.s)
		conn, _ := rawUpload(t, e, len(head)+len(content)+len(tail))
		_, err := io.WriteString(conn, head+content[:10]) // then nothing
		require.NoError(t, err)
		require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err == nil {
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
			assert.Equal(t, http.StatusBadRequest, resp.StatusCode, "%s %v", b, resp.Header)
		} else {
			// The connection was closed without an answer: also a cut.
			var ne net.Error
			require.False(t, errors.As(err, &ne) && ne.Timeout(), "the server held the stalled body: %v", err)
		}
		assert.Equal(t, blobs, blobCount(t, e.s), "nothing stored")
	})
	t.Run("flowing", func(t *testing.T) {
		conn, _ := rawUpload(t, e, len(head)+len(content)+len(tail))
		_, err := io.WriteString(conn, head)
		require.NoError(t, err)
		// 12 chunks 250 ms apart: 3 s in all, more than the idle timeout,
		// never 2 s without a byte.
		for i := range 12 {
			time.Sleep(250 * time.Millisecond)
			_, err := io.WriteString(conn, content[i*10:(i+1)*10])
			require.NoError(t, err)
		}
		_, err = io.WriteString(conn, tail)
		require.NoError(t, err)
		require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		require.NoError(t, err)
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
		assert.Equal(t, http.StatusCreated, resp.StatusCode, "%s", b)
		assert.True(t, bytes.Contains(b, []byte(sha1Hex([]byte(content)))))
	})
}

// TestHeaderAndIdleTimeouts: a connection that stalls its headers is
// closed after ReadHeaderTimeout; the listeners carry the idle timeout.
func TestHeaderAndIdleTimeouts(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{ReadHeaderTimeout: 200 * time.Millisecond})
	for _, srv := range e.s.life.servers {
		assert.Equal(t, 200*time.Millisecond, srv.ReadHeaderTimeout)
		assert.Equal(t, defaultIdleTimeout, srv.IdleTimeout)
	}
	u, err := url.Parse(e.api("/folders/0"))
	require.NoError(t, err)
	conn, err := net.Dial("tcp", u.Host)
	require.NoError(t, err)
	defer conn.Close()
	_, err = io.WriteString(conn, "GET /2.0/folders/0 HTTP/1.1\r\nHost: x\r\n") // no blank line
	require.NoError(t, err)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
	_, err = io.ReadAll(conn)
	var ne net.Error
	assert.False(t, errors.As(err, &ne) && ne.Timeout(), "the server held a connection whose headers stalled")
}

// TestCloseEndsStalledDownload: Close with a client that stopped reading a
// large download closes that connection after CloseGrace and returns nil;
// the handler has returned by then.
func TestCloseEndsStalledDownload(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{CloseGrace: 100 * time.Millisecond})
	f := e.uploadFile(e.s.UserToken(), "0", "big.bin", make([]byte, 16<<20))
	resp, _ := e.do("GET", e.api("/files/"+f["id"].(string)+"/content"), e.s.UserToken(), nil, nil)
	require.Equal(t, http.StatusFound, resp.StatusCode)
	u, err := url.Parse(resp.Header.Get("Location"))
	require.NoError(t, err)
	conn, err := net.Dial("tcp", u.Host)
	require.NoError(t, err)
	defer conn.Close()
	_, err = fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", u.RequestURI(), u.Host)
	require.NoError(t, err)
	dl, err := http.ReadResponse(bufio.NewReaderSize(conn, 16), nil) // headers, then no more reads
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, dl.StatusCode)

	require.NoError(t, e.s.Close())
}
