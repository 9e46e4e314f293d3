package cms

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"sync/atomic"

	"github.com/contentapi/cms/internal/transport"
	"golang.org/x/oauth2"
)

// authTransport adds "Authorization: Bearer <token>" to every attempt of an
// API call. With a *TokenSource it also answers a 401 by forcing one
// refresh (shared with concurrent callers) and sending the request once
// more, when its body can be produced again (no body, or GetBody set).
type authTransport struct {
	src    oauth2.TokenSource
	base   http.RoundTripper
	logger *slog.Logger
	// bearer is the Authorization value of the last token sent, kept so
	// that a call with the same token builds no string.
	bearer atomic.Pointer[bearerValue]
}

// bearerValue is an access token and its "Bearer <token>" header value.
type bearerValue struct{ token, header string }

func newAuthTransport(src oauth2.TokenSource, base http.RoundTripper, logger *slog.Logger) *authTransport {
	return &authTransport{src: src, base: base, logger: logger}
}

func (t *authTransport) token(ctx context.Context) (*oauth2.Token, error) {
	var (
		tok *oauth2.Token
		err error
	)
	if ts, ok := t.src.(*TokenSource); ok {
		tok, err = ts.TokenContext(ctx)
	} else {
		tok, err = t.src.Token()
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, tokenFailure(err)
	}
	if tok == nil || tok.AccessToken == "" {
		return nil, &transport.PermanentError{Err: errors.New("cms: token source returned no access token")}
	}
	return tok, nil
}

// tokenFailure marks token errors that a retry of the API call cannot fix
// (the token endpoint refused the credentials), so they are not retried.
func tokenFailure(err error) error {
	var ae *APIError
	if errors.As(err, &ae) && (ae.StatusCode == http.StatusTooManyRequests || ae.StatusCode >= 500) {
		return err
	}
	if errors.As(err, &ae) || errors.Is(err, ErrNoRefreshToken) {
		return &transport.PermanentError{Err: err}
	}
	return err
}

func (t *authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	tok, err := t.token(ctx)
	if err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	resp, err := t.base.RoundTrip(withBearer(req, t.bearerOf(tok)))
	if err != nil || resp.StatusCode != http.StatusUnauthorized {
		return resp, err
	}
	ts, ok := t.src.(*TokenSource)
	if !ok {
		return resp, nil
	}
	replay := req.Body == nil || req.Body == http.NoBody
	if !replay && req.GetBody == nil {
		t.debug(ctx, "401 not retried: the request body cannot be sent again", req)
		return resp, nil
	}
	fresh, err := ts.refreshRejected(ctx, tok.AccessToken)
	if err != nil {
		t.debug(ctx, "401 not retried: refresh failed", req, slog.String("error", err.Error()))
		return resp, nil
	}
	retry := withBearer(req, t.bearerOf(fresh))
	if !replay {
		body, err := req.GetBody()
		if err != nil {
			return resp, nil
		}
		retry.Body = body
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	t.debug(ctx, "401: token refreshed, request sent again", req)
	return t.base.RoundTrip(retry)
}

func (t *authTransport) debug(ctx context.Context, msg string, req *http.Request, attrs ...slog.Attr) {
	if t.logger == nil {
		return
	}
	attrs = append(attrs, slog.String("method", req.Method), slog.String("url", transport.RedactURL(req.URL)))
	t.logger.LogAttrs(ctx, slog.LevelDebug, "cms auth: "+msg, attrs...)
}

// bearerOf returns the Authorization value of tok.
func (t *authTransport) bearerOf(tok *oauth2.Token) string {
	if b := t.bearer.Load(); b != nil && b.token == tok.AccessToken {
		return b.header
	}
	b := &bearerValue{token: tok.AccessToken, header: "Bearer " + tok.AccessToken}
	t.bearer.Store(b)
	return b.header
}

// withBearer returns a copy of req whose header is req's plus
// "Authorization: <bearer>". req itself, its header included, is left as
// it was (a RoundTripper must not change its request); the copy shares
// what nothing changes (URL, body, context).
func withBearer(req *http.Request, bearer string) *http.Request {
	r := new(http.Request)
	*r = *req
	r.Header = headerWith(req.Header, "Authorization", bearer)
	return r
}

// headerWith returns a copy of h with key (canonical) set to value, in
// two allocations whatever h holds (the map and one slice for every value).
func headerWith(h http.Header, key, value string) http.Header {
	n := 1
	for _, vv := range h {
		n += len(vv)
	}
	values := make([]string, n)
	out := make(http.Header, len(h)+1)
	for k, vv := range h {
		if k == key {
			continue
		}
		if vv == nil { // kept: a nil value suppresses a header net/http would add
			out[k] = nil
			continue
		}
		m := copy(values, vv)
		out[k] = values[:m:m]
		values = values[m:]
	}
	values[0] = value
	out[key] = values[:1:1]
	return out
}
