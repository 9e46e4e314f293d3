// Package cmstest runs the Content API reference server (package
// [refserver]) inside a test, as net/http/httptest does for handlers, and
// hands out clients configured for it. The server is strict and stateful: it
// keeps folders, files, versions and upload sessions in memory, answers with
// the service's status codes and error codes, and can inject faults.
//
//	func TestMyCode(t *testing.T) {
//		srv := cmstest.NewServer(t, cmstest.Options{})
//		client := srv.Client(t)
//		// ... exercise code that takes a *cms.Client ...
//	}
//
// cmstest adds only what needs a testing.TB: start and close with the test,
// fail the test on errors, and make [cms.Client]s. Everything else (faults,
// the request log, tokens, app registration, stores) is [refserver]'s public
// API, reached through the embedded [*refserver.Server]; programs that are
// not tests use package refserver directly.
package cmstest

import (
	"net/http"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
)

// Options configure the server: small part sizes and chunked-upload
// minimums for fast tests, "not ready" windows for 202 answers, a clock, a
// content store. The zero value behaves like the real service. It is
// [refserver.Options].
type Options = refserver.Options

// Fault describes requests to fail (status and Retry-After, connection
// reset, delay, before or after the handler); see [refserver.Server.Inject].
// It is [refserver.Fault].
type Fault = refserver.Fault

// RequestRecord is one request the server received (credentials redacted)
// and the status it answered; see [refserver.Server.Requests]. It is
// [refserver.RequestRecord].
type RequestRecord = refserver.RequestRecord

// Store keeps file content; implement it for a custom store, or use
// NewMemoryStore and NewDirStore. It is [refserver.Store].
type Store = refserver.Store

// NewMemoryStore keeps content in memory (the default); see
// [refserver.NewMemoryStore].
func NewMemoryStore() Store { return refserver.NewMemoryStore() }

// NewDirStore keeps content in files under dir, for large uploads; see
// [refserver.NewDirStore].
func NewDirStore(dir string) (Store, error) { return refserver.NewDirStore(dir) }

// Server is a reference server bound to a test: the API root, the upload
// root and a content host for downloads (under another host name). All of
// [refserver.Server]'s methods are available on it (BaseURL, UploadURL, the
// tokens and user ids, Inject, ClearFaults, Requests, ResetRequests,
// UploadSession, RegisterApp, NewAppConfig, Handler, Transport, ...); Client,
// AdminClient and AppClient add SDK clients.
type Server struct {
	// Server is the reference server; it is closed when the test ends.
	*refserver.Server
	inProcess bool
}

// NewServer starts a server on loopback ports and closes it when the test
// ends. It fails the test if the server cannot start.
func NewServer(tb testing.TB, opts Options) *Server {
	tb.Helper()
	s, err := refserver.Start(opts)
	if err != nil {
		tb.Fatalf("cmstest: starting reference server: %v", err)
	}
	tb.Cleanup(func() { _ = s.Close() })
	return &Server{Server: s}
}

// NewInProcessServer makes a server without sockets: its clients call the
// handler directly (see [refserver.Server.Transport]). Use it under
// testing/synctest, where real sockets would keep the bubble's clock from
// advancing.
func NewInProcessServer(tb testing.TB, opts Options) *Server {
	tb.Helper()
	s, err := refserver.New(opts)
	if err != nil {
		tb.Fatalf("cmstest: creating reference server: %v", err)
	}
	tb.Cleanup(func() { _ = s.Close() })
	return &Server{Server: s, inProcess: true}
}

// Client returns a client of the server's managed user. opts are applied
// after the server's URLs and token, so they can override them.
func (s *Server) Client(tb testing.TB, opts ...cms.Option) *cms.Client {
	tb.Helper()
	return s.clientWithToken(tb, s.UserToken(), opts)
}

// AdminClient returns a client of the enterprise admin.
func (s *Server) AdminClient(tb testing.TB, opts ...cms.Option) *cms.Client {
	tb.Helper()
	return s.clientWithToken(tb, s.AdminToken(), opts)
}

// AppClient returns a client with the app token, which may only upload,
// download, get and delete files.
func (s *Server) AppClient(tb testing.TB, opts ...cms.Option) *cms.Client {
	tb.Helper()
	return s.clientWithToken(tb, s.AppToken(), opts)
}

// ClientOptions are the options that point a cms.Client at the server with
// token: base and upload URLs and, for an in-process server, an HTTP client
// that calls the handler directly. Client, AdminClient and AppClient use
// them; use them to build a client with other credentials (e.g. an
// auth flow against the server's token endpoint).
func (s *Server) ClientOptions(token string) []cms.Option {
	opts := []cms.Option{cms.WithBaseURL(s.BaseURL()), cms.WithUploadURL(s.UploadURL())}
	if token != "" {
		opts = append(opts, cms.WithToken(token))
	}
	if s.inProcess {
		hc := &http.Client{Transport: s.Transport()}
		// Plain http to the in-process hosts never reaches the network.
		opts = append(opts, cms.WithHTTPClient(hc), cms.WithDownloadHTTPClient(hc), cms.WithInsecureHTTP())
	}
	return opts
}

func (s *Server) clientWithToken(tb testing.TB, token string, opts []cms.Option) *cms.Client {
	tb.Helper()
	c, err := cms.NewClient(append(s.ClientOptions(token), opts...)...)
	if err != nil {
		tb.Fatalf("cmstest: creating client: %v", err)
	}
	return c
}
