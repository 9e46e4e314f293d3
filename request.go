package cms

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/contentapi/cms/internal/transport"
	"github.com/google/go-querystring/query"
)

// Response is the HTTP response of a call, with the fields the service adds.
type Response struct {
	*http.Response
	// RequestID is the service's id for the request (for support).
	RequestID string
	// RetryAfter is the response's Retry-After, when it has one.
	RetryAfter time.Duration
	// NextMarker is the marker of the next page of a marker-paged list
	// ("" on the last page); keep it to resume a listing later.
	NextMarker string
}

func newResponse(r *http.Response) *Response {
	resp := &Response{Response: r}
	resp.RequestID = requestID(r)
	if d, ok := transport.ParseRetryAfter(r.Header.Get("Retry-After"), time.Now()); ok {
		resp.RetryAfter = d
	}
	return resp
}

func requestID(r *http.Response) string {
	for _, h := range []string{"Box-Request-Id", "X-Request-Id", "Request-Id"} {
		if v := r.Header.Get(h); v != "" {
			return v
		}
	}
	return ""
}

// request is one API call being built.
type request struct {
	method string
	url    *url.URL
	header http.Header
	body   *transport.Body
	// acceptRedirect lets a 3xx answer through to the caller (downloads
	// read its Location) instead of turning it into an *APIError.
	acceptRedirect bool
}

// newRequest builds a call of method on root (c.cfg.baseURL or
// c.cfg.uploadURL) joined with the path segments, each escaped; opts, when
// not nil, becomes the query via its `url` tags.
func (c *Client) newRequest(method string, root *url.URL, opts any, segments ...string) (*request, error) {
	var b strings.Builder
	b.WriteString(root.EscapedPath())
	for _, s := range segments {
		if s == "" || s == "." || s == ".." {
			return nil, &ArgError{Arg: "path", Err: ErrInvalidID}
		}
		b.WriteByte('/')
		b.WriteString(url.PathEscape(s))
	}
	u := &url.URL{Scheme: root.Scheme, Host: root.Host, RawQuery: root.RawQuery}
	u.RawPath = b.String()
	u.Path, _ = url.PathUnescape(u.RawPath)
	return c.ownURLRequest(method, u, opts)
}

// newRequestURL builds a call of method on an absolute URL.
func (c *Client) newRequestURL(method string, u *url.URL, opts any) (*request, error) {
	return c.ownURLRequest(method, &url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawPath: u.RawPath, RawQuery: u.RawQuery}, opts)
}

// ownURLRequest is newRequestURL on a URL of the call's own (changed in
// place).
func (c *Client) ownURLRequest(method string, u *url.URL, opts any) (*request, error) {
	if !noQuery(opts) {
		q, err := query.Values(opts)
		if err != nil {
			return nil, fmt.Errorf("cms: encoding query: %w", err)
		}
		if existing := u.Query(); len(existing) > 0 {
			for k, vs := range q {
				existing[k] = vs
			}
			q = existing
		}
		u.RawQuery = q.Encode()
	}
	return &request{method: method, url: u, header: c.header.Clone()}, nil
}

// noQuery reports whether opts gives no query: nil, a nil pointer (an
// options argument left nil), or the zero value of an options type whose
// zero value encodes to nothing (which is learnt once per type by encoding
// it). query.Values would otherwise walk the struct by reflection and
// allocate an empty query on every call.
func noQuery(opts any) bool {
	if opts == nil {
		return true
	}
	v := reflect.ValueOf(opts)
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return true
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct || !v.IsZero() {
		return false
	}
	t := v.Type()
	if empty, ok := zeroQueryEmpty.Load(t); ok {
		return empty.(bool)
	}
	q, err := query.Values(reflect.New(t).Interface())
	empty := err == nil && len(q) == 0
	zeroQueryEmpty.Store(t, empty)
	return empty
}

// zeroQueryEmpty maps an options type to whether its zero value encodes to
// an empty query (a field without omitempty, such as usemarker, does not).
var zeroQueryEmpty sync.Map

// setJSON makes v the JSON body of the request.
func (r *request) setJSON(v any) error {
	buf, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("cms: encoding request body: %w", err)
	}
	r.setBytes("application/json", buf)
	return nil
}

// setBytes makes buf the request body, replayable for retries.
func (r *request) setBytes(contentType string, buf []byte) {
	r.header.Set("Content-Type", contentType)
	r.body = &transport.Body{
		Open:          func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(buf)), nil },
		ContentLength: int64(len(buf)),
		Replayable:    true,
	}
}

// send performs the request and checks its status. On success the caller
// owns resp.Body; on failure the body is closed and the error is an
// *APIError (or ctx.Err(), or a transport error).
func (c *Client) send(ctx context.Context, r *request) (*Response, error) {
	if err := checkCtx(ctx); err != nil {
		return nil, err
	}
	if err, _ := ctx.Value(badCallPolicyKey{}).(error); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// The URL and header are built already: the request takes them as they
	// are (NewRequestWithContext would print and parse the URL again and
	// make a header to be thrown away). The literal stays on the stack:
	// WithContext makes the one copy that is sent.
	hreq := (&http.Request{
		Method:     r.method,
		URL:        r.url, // net/http and the layers under it only read it
		Proto:      "HTTP/1.1",
		ProtoMajor: 1,
		ProtoMinor: 1,
		Header:     r.header,
		Host:       strings.TrimSuffix(r.url.Host, ":"), // as NewRequest: no empty port
	}).WithContext(ctx)
	start := time.Now()
	hresp, err := c.doer.Do(hreq, r.body)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, ctxErr
		}
		return nil, &url.Error{Op: r.method, URL: transport.RedactURL(r.url), Err: unwrapURLError(err)}
	}
	resp := newResponse(hresp)
	if c.cfg.logger != nil {
		c.cfg.logger.LogAttrs(ctx, slog.LevelDebug, "cms request",
			slog.String("method", r.method), slog.String("url", transport.RedactURL(r.url)),
			slog.Int("status", hresp.StatusCode), slog.String("request_id", resp.RequestID),
			slog.Duration("elapsed", time.Since(start)))
	}
	if r.acceptRedirect && hresp.StatusCode >= 300 && hresp.StatusCode < 400 && hresp.StatusCode != http.StatusNotModified {
		return resp, nil
	}
	if err := CheckResponse(hresp); err != nil {
		return resp, err
	}
	return resp, nil
}

// unwrapURLError strips the *url.Error the HTTP client adds (its URL is unredacted).
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// do performs the request and decodes a JSON body into v (when v is not
// nil and the response has a body).
func (c *Client) do(ctx context.Context, r *request, v any) (*Response, error) {
	resp, err := c.send(ctx, r)
	if err != nil {
		return resp, err
	}
	defer resp.Body.Close()
	if v == nil || resp.StatusCode == http.StatusNoContent {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
		return resp, nil
	}
	if raw, ok := v.(*[]byte); ok { // the caller decodes (iterators reading ahead)
		body, err := readBody(resp.Body, resp.ContentLength)
		if err != nil {
			return resp, decodeError(ctx, r.method, err)
		}
		*raw = body
		return resp, nil
	}
	// The body is only read during the decoding (the decoder copies what it
	// keeps), so its buffer is pooled.
	buf := getBodyBuffer()
	defer putBodyBuffer(buf)
	body, err := readBodyInto(buf, resp.Body, resp.ContentLength)
	if err == nil {
		if len(bytes.TrimSpace(body)) == 0 {
			return resp, nil // no body
		}
		err = decodeJSON(body, v)
	}
	if err != nil {
		return resp, decodeError(ctx, r.method, err)
	}
	return resp, nil
}

// decodeError is the error of a body that could not be read or decoded:
// ctx's error when ctx ended meanwhile.
func decodeError(ctx context.Context, method string, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	return fmt.Errorf("cms: decoding %s response: %w", method, err)
}

// waitNotReady waits out a 202 + Retry-After (content not ready, commit
// still processing) before the caller asks again. It returns an
// *AcceptedError instead of waiting when waits reached maxWaits, the wait
// exceeds the retry policy's MaxRetryAfter, or it would pass the ctx
// deadline; ctx.Err() when ctx ends during the wait.
func (c *Client) waitNotReady(ctx context.Context, resp *Response, waits, maxWaits int) error {
	wait := resp.RetryAfter
	if resp.Header.Get("Retry-After") == "" {
		wait = defaultNotReadyWait
	}
	policy := transport.Policy(c.cfg.retry)
	if p, ok := transport.PolicyFrom(ctx); ok {
		policy = p
	}
	notReady := &AcceptedError{RetryAfter: wait, Response: resp}
	if waits >= maxWaits || wait > policy.MaxRetryAfter {
		return notReady
	}
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < wait {
		return notReady
	}
	return c.sleep(ctx, wait)
}
