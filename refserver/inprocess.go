package refserver

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
)

// ErrInjectedReset is the error an in-process Transport returns for a request
// that met a Fault with Reset: to the client it is a broken connection.
var ErrInjectedReset = errors.New("refserver: connection reset by peer (injected)")

// Transport returns a RoundTripper that serves every request with the
// server's Handler in the calling goroutine, without sockets, for a server
// made by New (or any server: the in-process host names always work). Use it
// under testing/synctest, where sockets keep the bubble's clock from
// advancing. Responses are buffered, so keep content small.
func (s *Server) Transport() http.RoundTripper { return handlerTransport{s.Handler()} }

type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(req *http.Request) (resp *http.Response, err error) {
	defer func() {
		// An injected reset aborts the handler (there is no connection to
		// hijack); to the client it is a broken connection.
		if p := recover(); p != nil {
			if p != http.ErrAbortHandler {
				panic(p)
			}
			resp, err = nil, ErrInjectedReset
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
