package cms

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// Settings of the HTTP transport a Client uses when no WithHTTPClient (or
// WithDownloadHTTPClient) gives one of its own. They are sized for the
// concurrency the SDK itself creates and for typical callers:
//
//   - a chunked upload keeps up to Concurrency parts in flight (4 by
//     default, up to 16 is common), a read-ahead iterator one more request,
//     tree transfers share one budget across files and parts;
//   - callers commonly run 8–32 goroutines against one client.
//
// http.DefaultTransport keeps only 2 idle connections per host: every
// request beyond the second in a concurrent burst then opens a new
// connection (a new TLS handshake against the real service) and closes it
// when done. DefaultMaxIdleConnsPerHost keeps enough of them to be reused.
const (
	// DefaultMaxIdleConnsPerHost is how many idle keep-alive connections
	// the default transport keeps per host.
	DefaultMaxIdleConnsPerHost = 64
	// DefaultMaxIdleConns is how many idle connections the default
	// transport keeps across all hosts (API, upload and content hosts).
	DefaultMaxIdleConns = 3 * DefaultMaxIdleConnsPerHost
	// DefaultIdleConnTimeout is how long an idle connection is kept.
	DefaultIdleConnTimeout = 90 * time.Second
)

// NewDefaultTransport returns a new transport with the settings the SDK's
// default transport has: http.DefaultTransport's (proxy from the
// environment, dial and TLS handshake timeouts, HTTP/2 when the server
// offers it) with DefaultMaxIdleConns, DefaultMaxIdleConnsPerHost and
// DefaultIdleConnTimeout. Use it as the starting point of a transport of
// your own:
//
//	t := cms.NewDefaultTransport()
//	t.MaxIdleConnsPerHost = 128
//	client, err := cms.NewClient(cms.WithToken(tok), cms.WithHTTPClient(&http.Client{Transport: t}))
//
// A Client made without WithHTTPClient shares one such transport with every
// other such Client of the process, as clients on http.DefaultTransport do.
func NewDefaultTransport() *http.Transport {
	dialer := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          DefaultMaxIdleConns,
		MaxIdleConnsPerHost:   DefaultMaxIdleConnsPerHost,
		IdleConnTimeout:       DefaultIdleConnTimeout,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: 1 * time.Second,
	}
}

// sharedTransport is the transport of every Client made without
// WithHTTPClient: one pool of connections per process.
var sharedTransport = sync.OnceValue(NewDefaultTransport)
