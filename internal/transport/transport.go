// Package transport wires go-retryablehttp for the SDK: which requests are
// retried, how long to wait (Retry-After, jittered exponential backoff), how
// request bodies are replayed without buffering, and log redaction.
package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"slices"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// Policy says how often and how long to retry. Its zero value, and every
// zero field, means the default (see DefaultPolicy and WithDefaults).
type Policy struct {
	// MaxRetries is the number of retries after the first attempt: 0 means
	// the default (4), a negative value means no retries.
	MaxRetries int
	// MinBackoff and MaxBackoff bound the jittered exponential backoff
	// (0 = 0.5 s and 30 s).
	MinBackoff, MaxBackoff time.Duration
	// MaxRetryAfter caps a server's Retry-After (0 = 60 s). A longer
	// Retry-After ends the retries and returns the response.
	MaxRetryAfter time.Duration
	// RetryStatuses are the statuses retried: 429 for every request, the
	// others only for idempotent requests. nil means DefaultRetryStatuses;
	// an empty non-nil slice retries no status (network errors still are).
	RetryStatuses []int
}

// DefaultRetryStatuses are retried unless a policy says otherwise: 429 (the
// request was not processed) and 500, 502, 503, 504 (the service's error
// guide: retry with exponential backoff).
func DefaultRetryStatuses() []int {
	return []int{http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout}
}

// DefaultPolicy is 4 retries, backoff from 0.5 s to 30 s, Retry-After up to
// 60 s, on DefaultRetryStatuses.
func DefaultPolicy() Policy {
	return Policy{}.WithDefaults()
}

// WithDefaults returns p with every zero field replaced by its default (a
// negative MaxRetries stays: no retries). Applying it twice changes nothing.
// RetryStatuses is copied, so the caller's slice is never shared.
func (p Policy) WithDefaults() Policy {
	p = p.filled()
	p.RetryStatuses = append([]int{}, p.RetryStatuses...)
	return p
}

// defaultRetryStatuses is DefaultRetryStatuses for reading only (filled
// shares it, so a call allocates no slice).
var defaultRetryStatuses = DefaultRetryStatuses()

// filled is WithDefaults without the copy of RetryStatuses: the result
// shares p's slice (or defaultRetryStatuses) and must only be read. Doer.Do
// uses it once per call.
func (p Policy) filled() Policy {
	if p.MaxRetries == 0 {
		p.MaxRetries = 4
	}
	if p.MinBackoff == 0 {
		p.MinBackoff = 500 * time.Millisecond
	}
	if p.MaxBackoff == 0 {
		p.MaxBackoff = max(30*time.Second, p.MinBackoff)
	}
	if p.MaxRetryAfter == 0 {
		p.MaxRetryAfter = 60 * time.Second
	}
	if p.RetryStatuses == nil {
		p.RetryStatuses = defaultRetryStatuses
	}
	return p
}

// Validate reports a policy that cannot work: negative durations, a
// MaxBackoff below MinBackoff (after defaults), or a retried status that is
// not an error status (400-599).
func (p Policy) Validate() error {
	switch {
	case p.MinBackoff < 0 || p.MaxBackoff < 0 || p.MaxRetryAfter < 0:
		return errors.New("durations must not be negative")
	case p.WithDefaults().MaxBackoff < p.WithDefaults().MinBackoff:
		return errors.New("MaxBackoff must not be below MinBackoff")
	}
	for _, c := range p.RetryStatuses {
		if c < 400 || c > 599 {
			return fmt.Errorf("retry status %d is not an error status (400-599)", c)
		}
	}
	return nil
}

type ctxKey int

const (
	idempotentKey ctxKey = iota
	policyKey
)

// WithIdempotent marks the requests sent with ctx as safe to repeat, so they
// are retried on 5xx and network errors like GET and PUT are.
func WithIdempotent(ctx context.Context) context.Context {
	return context.WithValue(ctx, idempotentKey, true)
}

// IsIdempotent reports whether ctx was marked by WithIdempotent.
func IsIdempotent(ctx context.Context) bool {
	v, _ := ctx.Value(idempotentKey).(bool)
	return v
}

// WithPolicy overrides the client's retry policy for requests sent with ctx.
func WithPolicy(ctx context.Context, p Policy) context.Context {
	return context.WithValue(ctx, policyKey, p)
}

// PolicyFrom returns the policy set by WithPolicy, if any.
func PolicyFrom(ctx context.Context) (Policy, bool) {
	p, ok := ctx.Value(policyKey).(Policy)
	return p, ok
}

// IdempotentMethod reports whether HTTP defines method as idempotent.
func IdempotentMethod(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete, http.MethodOptions:
		return true
	}
	return false
}

// Body produces a fresh request body for each attempt. Replayable bodies can
// be produced any number of times; others only once.
type Body struct {
	Open          func() (io.ReadCloser, error)
	ContentLength int64 // -1 when unknown
	Replayable    bool
}

// Doer sends requests with retries. It is safe for concurrent use.
type Doer struct {
	HTTPClient *http.Client // carries authentication; must not follow redirects
	Policy     Policy
	Logger     *slog.Logger // nil = no logs
	// Rand returns a float in [0,1) for jitter; nil uses math/rand/v2.
	Rand func() float64
	// Sleep, if set, performs the wait before each retry instead of a
	// timer (tests use a fake clock); it returns ctx.Err() when ctx ends.
	Sleep func(ctx context.Context, d time.Duration) error
}

// attemptState is one call: its retry decisions (from CheckRetry to
// Backoff), its body, and the retryablehttp client that runs it, in one
// allocation.
type attemptState struct {
	policy     Policy
	idempotent bool
	replayable bool
	retries    int
	nextWait   time.Duration
	rand       func() float64
	sleep      func(context.Context, time.Duration) error
	body       *Body
	rreq       retryablehttp.Request
	rc         retryablehttp.Client
}

// Do sends req, retrying as the policy allows. req must not have a body:
// body (may be nil) is opened for every attempt. The last response, whatever
// its status, is returned without its body being read; a non-nil error means
// no usable response (the body of any response is then already closed). Do
// sends req itself (and shallow copies of it for retries): the caller must
// not use req again.
func (d *Doer) Do(req *http.Request, body *Body) (*http.Response, error) {
	ctx := req.Context()
	policy := d.Policy
	if p, ok := PolicyFrom(ctx); ok {
		policy = p
	}
	st := &attemptState{
		policy:     policy.filled(),
		idempotent: IdempotentMethod(req.Method) || IsIdempotent(ctx),
		replayable: body == nil || body.Replayable,
		rand:       d.Rand,
		sleep:      d.Sleep,
		body:       body,
	}
	if st.rand == nil {
		st.rand = rand.Float64
	}
	// req has no body, so it is wrapped as is (retryablehttp.FromRequest
	// would only add a reader of its body); setBody gives each attempt its own.
	st.rreq.Request = req
	if err := st.setBody(req); err != nil {
		return nil, err
	}
	st.rc = retryablehttp.Client{
		HTTPClient:   d.HTTPClient,
		RetryMax:     max(st.policy.MaxRetries, 0),
		RetryWaitMin: st.policy.MinBackoff,
		RetryWaitMax: st.policy.MaxBackoff,
		CheckRetry:   st.checkRetry,
		Backoff:      st.backoff,
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
		PrepareRetry: st.setBody,
	}
	if d.Logger != nil {
		st.rc.Logger = leveled{d.Logger}
	}
	resp, err := st.rc.Do(&st.rreq)
	if err != nil {
		if resp != nil {
			resp.Body.Close()
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	return resp, nil
}

// setBody gives an attempt its own body (none when the call has none).
func (st *attemptState) setBody(r *http.Request) error {
	body := st.body
	if body == nil {
		return nil
	}
	rc, err := body.Open()
	if err != nil {
		return err
	}
	r.Body = rc
	r.ContentLength = body.ContentLength
	if body.Replayable {
		r.GetBody = body.Open // lets the auth layer resend after a 401
	}
	if body.ContentLength == 0 {
		r.Body = http.NoBody
	}
	return nil
}

// backoff is the wait checkRetry decided (zero when it waited already).
func (st *attemptState) backoff(_, _ time.Duration, _ int, _ *http.Response) time.Duration {
	return st.nextWait
}

// checkRetry decides whether to try again and, if so, how long to wait first.
func (st *attemptState) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if st.retries >= st.policy.MaxRetries || !st.replayable || !Retryable(st.policy.RetryStatuses, resp, err, st.idempotent) {
		return false, nil
	}
	wait, ok := Wait(st.policy, st.retries, resp, st.rand)
	if !ok {
		return false, nil // Retry-After beyond the cap: hand the response back
	}
	if deadline, has := ctx.Deadline(); has && time.Until(deadline) < wait {
		return false, nil // the wait would outlive the caller: hand the response back
	}
	if st.sleep != nil {
		if err := st.sleep(ctx, wait); err != nil {
			return false, err
		}
		wait = 0 // waited already
	}
	st.retries++
	st.nextWait = wait
	return true, nil
}

// PermanentError marks a transport error no retry can fix, such as a token
// endpoint refusing the credentials.
type PermanentError struct{ Err error }

func (e *PermanentError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *PermanentError) Unwrap() error { return e.Err }

// Retryable reports whether a response or transport error is worth another
// attempt. Of the statuses listed, 429 is retried for every request (the
// request was not processed), the others only for idempotent requests;
// network errors only for idempotent requests.
func Retryable(statuses []int, resp *http.Response, err error, idempotent bool) bool {
	if err != nil {
		var pe *PermanentError
		if !idempotent || errors.As(err, &pe) {
			return false
		}
		// retryablehttp's policy knows which transport errors are final
		// (TLS, scheme, redirect loops, invalid headers).
		retry, _ := retryablehttp.DefaultRetryPolicy(context.Background(), nil, err)
		return retry
	}
	if !slices.Contains(statuses, resp.StatusCode) {
		return false
	}
	return idempotent || resp.StatusCode == http.StatusTooManyRequests
}

// Wait returns how long to wait before retry number n (0-based): the
// response's Retry-After if it has one (ok=false when it exceeds
// MaxRetryAfter), otherwise jittered exponential backoff ("full jitter" above
// MinBackoff, capped at MaxBackoff).
func Wait(p Policy, n int, resp *http.Response, rnd func() float64) (time.Duration, bool) {
	if resp != nil {
		if d, ok := ParseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			if d > p.MaxRetryAfter {
				return 0, false
			}
			return d, true
		}
	}
	if p.MaxBackoff <= 0 {
		return 0, true
	}
	exp := p.MinBackoff
	for i := 0; i < n && exp < p.MaxBackoff; i++ {
		exp *= 2
	}
	if exp <= 0 {
		exp = p.MinBackoff
	}
	exp = min(exp, p.MaxBackoff)
	jitter := time.Duration(rnd() * float64(exp-p.MinBackoff))
	return p.MinBackoff + jitter, true
}
