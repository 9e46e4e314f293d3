package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStopWithStalledDownloadExitsZero: SIGTERM while a client has stopped
// reading a large download ends that connection after the grace period,
// and the process exits 0 (it used to exit 1 with "refserver: refserver:
// shutdown: context deadline exceeded").
func TestStopWithStalledDownloadExitsZero(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	ctx := context.Background()
	c := startChild(t, "-close-grace", "200ms")
	cl := c.client(t, nil)
	const size = 32 << 20
	f, _, err := cl.Files.UploadInOneRequest(ctx, "0", "big.bin", bytes.NewReader(make([]byte, size)), size, nil)
	require.NoError(t, err)
	loc, _, err := cl.Files.DownloadURL(ctx, f.ID, nil)
	require.NoError(t, err)
	u, err := url.Parse(loc)
	require.NoError(t, err)

	// A client that asks for the content and never reads it.
	conn, err := net.Dial("tcp", u.Host)
	require.NoError(t, err)
	defer conn.Close()
	_, err = fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", u.RequestURI(), u.Host)
	require.NoError(t, err)
	resp, err := http.ReadResponse(bufio.NewReaderSize(conn, 16), nil) // headers only
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)

	c.stop(t) // SIGTERM; requires exit status 0
}

func TestErrorLinePrefixedOnce(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "refserver: listen x: boom", errorLine(errors.New("refserver: listen x: boom")))
	assert.Equal(t, "refserver: unexpected arguments: [a]", errorLine(errors.New("unexpected arguments: [a]")))
}
