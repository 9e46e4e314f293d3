package cms

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"
)

// TestPacerSlowsDownOn429AndRecovers: each 429 halves the pace, down to one
// call every 5 s; successes bring it back step by step to the configured
// pace, never past it.
func TestPacerSlowsDownOn429AndRecovers(t *testing.T) {
	t.Parallel()
	p := newPacer(RateLimits{RequestsPerMinute: 600, UploadsPerMinute: 60, Burst: 5})
	g, u := p.limitOf()
	require.Equal(t, 100*time.Millisecond, g)
	require.Equal(t, time.Second, u)
	p.observe(http.StatusTooManyRequests)
	g, u = p.limitOf()
	assert.Equal(t, 200*time.Millisecond, g)
	assert.Equal(t, 2*time.Second, u)
	for range 20 {
		p.observe(http.StatusTooManyRequests)
	}
	g, u = p.limitOf()
	assert.Equal(t, 5*time.Second, g, "no slower than the floor")
	assert.Equal(t, 5*time.Second, u)
	for range 500 {
		p.observe(http.StatusOK)
	}
	g, u = p.limitOf()
	assert.Equal(t, 100*time.Millisecond, g, "back to the configured pace, not past it")
	assert.Equal(t, time.Second, u)
}

func TestWithRateLimitValidates(t *testing.T) {
	t.Parallel()
	_, err := NewClient(WithToken("t"), WithRateLimit(RateLimits{RequestsPerMinute: -1}))
	assert.ErrorIs(t, err, ErrInvalidArgument)
	c, err := NewClient(WithToken("t"), WithRateLimit(RateLimits{}))
	require.NoError(t, err)
	g, u := c.cfg.limiter.limitOf()
	assert.InDelta(t, float64(60*time.Millisecond), float64(g), float64(time.Microsecond), "1000 a minute by default")
	assert.Equal(t, 250*time.Millisecond, u, "240 uploads a minute by default")
	assert.Equal(t, DefaultRateLimits(), RateLimits{RequestsPerMinute: 1000, UploadsPerMinute: 240, Burst: 10})
}

// limitOf returns the time between two calls each limiter allows now.
func (p *pacer) limitOf() (general, uploads time.Duration) {
	every := func(l rate.Limit) time.Duration { return time.Duration(float64(time.Second) / float64(l)) }
	return every(p.general.Limit()), every(p.uploads.Limit())
}
