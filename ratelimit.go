package cms

import (
	"net/http"
	"strings"
	"sync"

	"golang.org/x/time/rate"
)

// RateLimits pace a client's requests under the service's per-user limits,
// so that a busy program waits on its own side instead of collecting 429s.
// The service documents (developer guide "Rate Limits"): about 1000 API
// calls per minute per user, of which at most 240 file uploads per minute
// per user (uploads count towards both). Searches have limits of their own
// that this does not model.
type RateLimits struct {
	// RequestsPerMinute paces every API and upload call: 0 means 1000.
	RequestsPerMinute int
	// UploadsPerMinute paces calls to the upload root on top: 0 means 240.
	UploadsPerMinute int
	// Burst is how many calls may go at once after a quiet spell: 0 means
	// 10.
	Burst int
}

// DefaultRateLimits are the service's documented per-user limits.
func DefaultRateLimits() RateLimits {
	return RateLimits{RequestsPerMinute: 1000, UploadsPerMinute: 240, Burst: 10}
}

// WithRateLimit paces the client's requests (API and upload calls; the
// content host's downloads are not counted) under limits, on
// golang.org/x/time/rate: a call waits for its turn, within its ctx. While
// the service answers 429 the pace slows down further (halved, down to one
// call every few seconds) and recovers step by step as calls succeed.
//
// It is off by default: the limits are per user on the service's side, and
// only the program knows how many clients, processes or machines share a
// user. Turn it on for bulk work with WithRateLimit(DefaultRateLimits()).
// The limiter is shared by Clone and AsUser clients, which act as the same
// user only when AsUser is not used; give each As-User client its own with
// Clone(WithRateLimit(...)) if it matters. Negative values are an error.
func WithRateLimit(limits RateLimits) Option {
	return func(c *config) error {
		if limits.RequestsPerMinute < 0 || limits.UploadsPerMinute < 0 || limits.Burst < 0 {
			return invalidArg("rate limits", "negative")
		}
		d := DefaultRateLimits()
		if limits.RequestsPerMinute == 0 {
			limits.RequestsPerMinute = d.RequestsPerMinute
		}
		if limits.UploadsPerMinute == 0 {
			limits.UploadsPerMinute = d.UploadsPerMinute
		}
		if limits.Burst == 0 {
			limits.Burst = d.Burst
		}
		c.limiter = newPacer(limits)
		return nil
	}
}

// minBackoffRate is the slowest pace a run of 429s brings the limiter to.
const minBackoffRate = rate.Limit(1.0 / 5)

// pacer holds the two limiters of WithRateLimit and adapts them to 429s.
type pacer struct {
	general, uploads *rate.Limiter
	mu               sync.Mutex
	base             [2]rate.Limit // the configured rates
}

func newPacer(l RateLimits) *pacer {
	g := rate.Limit(float64(l.RequestsPerMinute) / 60)
	u := rate.Limit(float64(l.UploadsPerMinute) / 60)
	return &pacer{
		general: rate.NewLimiter(g, l.Burst),
		uploads: rate.NewLimiter(u, max(1, min(l.Burst, l.UploadsPerMinute))),
		base:    [2]rate.Limit{g, u},
	}
}

// observe adapts the pace to an answer: a 429 halves it (down to
// minBackoffRate), any other answer brings it a tenth of the way back.
func (p *pacer) observe(status int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, l := range []*rate.Limiter{p.general, p.uploads} {
		cur := l.Limit()
		switch {
		case status == http.StatusTooManyRequests:
			l.SetLimit(max(cur/2, minBackoffRate))
		case cur < p.base[i]:
			l.SetLimit(min(cur+(p.base[i]-cur)/10+rate.Limit(0.01), p.base[i]))
		}
	}
}

// pacedTransport waits for the pacer before each attempt of an API or
// upload call (retries included: each attempt is a call to the service).
type pacedTransport struct {
	pacer     *pacer
	uploadURL string // the upload root's scheme and host
	base      http.RoundTripper
}

func (t *pacedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	if err := t.pacer.general.Wait(ctx); err != nil {
		closeBody(req)
		return nil, err
	}
	if strings.HasPrefix(req.URL.String(), t.uploadURL) {
		if err := t.pacer.uploads.Wait(ctx); err != nil {
			closeBody(req)
			return nil, err
		}
	}
	resp, err := t.base.RoundTrip(req)
	if err == nil {
		t.pacer.observe(resp.StatusCode)
	}
	return resp, err
}

// closeBody closes a request body the transport will not send, as a
// RoundTripper must.
func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}
