// Package cmstest runs the Content API reference server inside a test, as
// net/http/httptest does for handlers, and hands out clients configured for
// it. The server is strict and stateful: it keeps folders, files, versions
// and upload sessions in memory, answers with the service's status codes and
// error codes, and can inject faults.
//
//	func TestMyCode(t *testing.T) {
//		srv := cmstest.NewServer(t, cmstest.Options{})
//		client := srv.Client(t)
//		// ... exercise code that takes a *cms.Client ...
//	}
package cmstest

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
)

// Options configure the server: small part sizes and chunked-upload
// minimums for fast tests, "not ready" windows for 202 answers, a clock, a
// content store. The zero value behaves like the real service.
type Options = refserver.Options

// Fault describes requests to fail (status and Retry-After, connection
// reset, or delay); see Server.Inject.
type Fault = refserver.Fault

// RequestRecord is one request the server received (credentials redacted).
type RequestRecord = refserver.RequestRecord

// Store keeps file content; see NewMemoryStore and NewDirStore.
type Store = refserver.Store

// NewMemoryStore keeps content in memory (the default).
func NewMemoryStore() Store { return refserver.NewMemoryStore() }

// NewDirStore keeps content in files under dir, for large uploads.
func NewDirStore(dir string) (Store, error) { return refserver.NewDirStore(dir) }

// Server is a reference server: the API root, the upload root and a content
// host for downloads (under another host name). Its methods (BaseURL,
// UploadURL, tokens, Inject, Requests, ...) come from the embedded server.
type Server struct {
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
	tb.Cleanup(func() { s.Close() })
	return &Server{Server: s}
}

// NewInProcessServer makes a server without sockets: its clients call the
// handler directly. Use it under testing/synctest, where real sockets would
// keep the bubble's clock from advancing.
func NewInProcessServer(tb testing.TB, opts Options) *Server {
	tb.Helper()
	s, err := refserver.New(opts)
	if err != nil {
		tb.Fatalf("cmstest: creating reference server: %v", err)
	}
	tb.Cleanup(func() { s.Close() })
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

func (s *Server) clientWithToken(tb testing.TB, token string, opts []cms.Option) *cms.Client {
	tb.Helper()
	base := []cms.Option{cms.WithToken(token), cms.WithBaseURL(s.BaseURL()), cms.WithUploadURL(s.UploadURL())}
	if s.inProcess {
		hc := &http.Client{Transport: s.Transport()}
		base = append(base, cms.WithHTTPClient(hc), cms.WithDownloadHTTPClient(hc))
	}
	c, err := cms.NewClient(append(base, opts...)...)
	if err != nil {
		tb.Fatalf("cmstest: creating client: %v", err)
	}
	return c
}

// Transport returns a RoundTripper that serves every request with the
// server's handler in the calling goroutine, without sockets. Responses are
// buffered, so keep content small in tests that use it.
func (s *Server) Transport() http.RoundTripper { return handlerTransport{s.Handler()} }

type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(req *http.Request) (resp *http.Response, err error) {
	defer func() {
		// An injected connection reset aborts the handler; to the client it
		// is a broken connection.
		if p := recover(); p != nil {
			if p != http.ErrAbortHandler {
				panic(p)
			}
			resp, err = nil, errors.New("cmstest: connection reset by peer (injected)")
		}
	}()
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	rec := httptest.NewRecorder()
	r := req.Clone(req.Context())
	if r.Body == nil {
		r.Body = http.NoBody
	}
	r.RequestURI = req.URL.RequestURI()
	r.RemoteAddr = "192.0.2.1:1234"
	t.h.ServeHTTP(rec, r)
	if req.Body != nil {
		req.Body.Close()
	}
	resp = rec.Result()
	resp.Request = req
	resp.Body = io.NopCloser(bytes.NewReader(rec.Body.Bytes()))
	return resp, nil
}
