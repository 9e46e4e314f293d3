package cms

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"

	"github.com/contentapi/cms/internal/transport"
)

// The escape hatch: NewRequest, NewUploadRequest and Do call any endpoint,
// one the SDK has no method for included, through the same request path as
// the services' methods.

// Request is a call of any endpoint, built by Client.NewRequest or
// Client.NewUploadRequest and sent by Client.Do with the client's token,
// retries, rate limit, As-User header and error decoding. Change it with
// its methods before sending it.
type Request struct {
	r *request
}

// NewRequest builds a call of method on path, relative to the API root (for
// example "files/123", or "folders/0/items?limit=10&fields=name"). body,
// when not nil, is encoded as the JSON body; a raw body is set with
// SetBody. The path's segments are taken as escaped (a name holding "/" is
// given as url.PathEscape(name)); "." and ".." segments, absolute URLs and
// fragments are refused with an *ArgError.
//
// Retries follow the client's rules: GET, HEAD, PUT, DELETE and OPTIONS are
// retried on the RetryPolicy's statuses and network errors, a POST only on
// 429 unless ctx went through WithIdempotent.
func (c *Client) NewRequest(method, path string, body any) (*Request, error) {
	return c.newPublicRequest(method, c.cfg.baseURL, path, body)
}

// NewUploadRequest is NewRequest on the upload root (for example
// "files/content", or "files/upload_sessions/ID" to send a part).
func (c *Client) NewUploadRequest(method, path string, body any) (*Request, error) {
	return c.newPublicRequest(method, c.cfg.uploadURL, path, body)
}

func (c *Client) newPublicRequest(method string, root *url.URL, path string, body any) (*Request, error) {
	if !validMethod(method) {
		return nil, invalidArg("method", fmt.Sprintf("%q is not an HTTP method", method))
	}
	segments, rawQuery, err := splitRequestPath(path)
	if err != nil {
		return nil, err
	}
	r, err := c.newRequest(method, root, nil, segments...)
	if err != nil {
		return nil, &ArgError{Arg: "path", Reason: "empty, \".\" or \"..\" segment", Err: ErrInvalidArgument}
	}
	r.url.RawQuery = rawQuery
	switch body.(type) {
	case nil:
	case io.Reader, []byte: // a json.RawMessage is JSON, and passes
		return nil, invalidArg("body", "a raw body is set with Request.SetBody; NewRequest's body is encoded as JSON")
	default:
		if err := r.setJSON(body); err != nil {
			return nil, err
		}
	}
	return &Request{r: r}, nil
}

// validMethod reports whether m is an HTTP method token.
func validMethod(m string) bool {
	if m == "" {
		return false
	}
	for _, b := range []byte(m) {
		if b < 'A' || b > 'Z' {
			return false
		}
	}
	return true
}

// splitRequestPath splits a path relative to a root into its unescaped
// segments and its query, normalized.
func splitRequestPath(path string) (segments []string, rawQuery string, err error) {
	bad := func(reason string) ([]string, string, error) {
		return nil, "", &ArgError{Arg: "path", Reason: reason, Err: ErrInvalidArgument}
	}
	if strings.Contains(path, "#") {
		return bad("must not have a fragment")
	}
	p, q, _ := strings.Cut(path, "?")
	if strings.Contains(p, "://") || strings.HasPrefix(p, "//") {
		return bad("must be relative to the root, not an absolute URL")
	}
	p = strings.TrimPrefix(p, "/")
	if p == "" {
		return bad("empty")
	}
	for _, s := range strings.Split(p, "/") {
		seg, err := url.PathUnescape(s)
		if err != nil {
			return bad("bad escape in " + fmt.Sprintf("%q", s))
		}
		segments = append(segments, seg)
	}
	if q != "" {
		values, err := url.ParseQuery(q)
		if err != nil {
			return bad("bad query: " + err.Error())
		}
		rawQuery = values.Encode()
	}
	return segments, rawQuery, nil
}

// Method returns the request's method.
func (r *Request) Method() string { return r.r.method }

// URL returns the URL the request is sent to (a copy).
func (r *Request) URL() *url.URL {
	u := *r.r.url
	return &u
}

// Header returns the request's header, to be changed before Do (an
// If-Match, say). It holds the client's User-Agent, Accept, As-User and
// WithHeader headers already; Authorization is the client's to set, and Do
// refuses a request that sets it.
func (r *Request) Header() http.Header { return r.r.header }

// SetQuery replaces the request's query with q.
func (r *Request) SetQuery(q url.Values) { r.r.url.RawQuery = q.Encode() }

// SetBody makes body the request's raw body, streamed as it is sent: size
// is its length in bytes, or -1 when unknown. A body that is an io.Seeker is
// sent again from where it stands now when a retry needs it; any other is
// sent once, so the request is not retried after its body went out. The
// body is never closed.
func (r *Request) SetBody(contentType string, body io.Reader, size int64) error {
	switch {
	case body == nil:
		return invalidArg("body", "nil")
	case size < -1:
		return invalidArg("size", "negative")
	case contentType == "" || strings.ContainsAny(contentType, "\r\n"):
		return invalidArg("content type", "empty or not one line")
	}
	r.r.header.Set("Content-Type", contentType)
	if s, ok := body.(io.Seeker); ok {
		start, err := s.Seek(0, io.SeekCurrent)
		if err == nil {
			r.r.body = &transport.Body{
				Open: func() (io.ReadCloser, error) {
					if _, err := s.Seek(start, io.SeekStart); err != nil {
						return nil, err
					}
					return io.NopCloser(body), nil
				},
				ContentLength: size,
				Replayable:    true,
			}
			return nil
		}
	}
	var opened atomic.Bool
	r.r.body = &transport.Body{
		Open: func() (io.ReadCloser, error) {
			if opened.Swap(true) {
				return nil, errors.New("cms: the request's body was sent already; set it again with SetBody")
			}
			return io.NopCloser(body), nil
		},
		ContentLength: size,
	}
	return nil
}

// Do sends req and reads the answer into v:
//   - nil: the body is discarded;
//   - an io.Writer: the body is streamed into it (a file, a hash), never
//     held whole;
//   - a *[]byte: the body's bytes;
//   - anything else: the JSON body is decoded into it (a pointer to a
//     struct of this package, or of the caller's).
//
// A status outside 2xx is an *APIError (match it with errors.Is and the
// sentinels, ErrNotFound say), after the client's retries; a 3xx is one
// too (downloads, which redirect, are FilesService.Download's). Send a
// request with the client that built it: its headers (As-User included)
// are that client's.
func (c *Client) Do(ctx context.Context, req *Request, v any) (*Response, error) {
	if req == nil || req.r == nil {
		return nil, invalidArg("request", "nil: build it with NewRequest or NewUploadRequest")
	}
	if req.r.header.Get("Authorization") != "" {
		return nil, invalidArg("header", "Authorization is the client's to set (WithToken, WithTokenSource)")
	}
	w, ok := v.(io.Writer)
	if !ok {
		return c.do(ctx, req.r, v)
	}
	resp, err := c.send(ctx, req.r)
	if err != nil {
		return resp, err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(w, resp.Body); err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return resp, ctxErr
		}
		return resp, fmt.Errorf("cms: reading %s response: %w", req.r.method, err)
	}
	return resp, nil
}
