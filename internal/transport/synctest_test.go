//go:build go1.25

package transport

import (
	"context"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDoerHonoursRetryAfter runs in a synctest bubble: the waits are on the
// bubble's fake clock, so the test checks their length without sleeping.
func TestDoerHonoursRetryAfter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mt := httpmock.NewMockTransport()
		d := &Doer{HTTPClient: &http.Client{Transport: mt}, Policy: DefaultPolicy()}
		var at []time.Time
		date := time.Now().Add(7 * time.Second).UTC().Format(http.TimeFormat)
		mt.RegisterResponder("GET", "https://x.test/a", func(*http.Request) (*http.Response, error) {
			at = append(at, time.Now())
			switch len(at) {
			case 1:
				r := httpmock.NewStringResponse(429, `{}`)
				r.Header.Set("Retry-After", "3")
				return r, nil
			case 2:
				r := httpmock.NewStringResponse(503, `{}`)
				r.Header.Set("Retry-After", date)
				return r, nil
			}
			return httpmock.NewStringResponse(200, `{}`), nil
		})
		req, _ := http.NewRequestWithContext(context.Background(), "GET", "https://x.test/a", nil)
		resp, err := d.Do(req, nil)
		require.NoError(t, err)
		resp.Body.Close()
		require.Len(t, at, 3)
		assert.Equal(t, 3*time.Second, at[1].Sub(at[0]), "seconds form")
		assert.InDelta(t, float64(4*time.Second), float64(at[2].Sub(at[1])), float64(time.Second), "HTTP-date form")
	})
}

// TestDoerWaitIsCancellable cancels the ctx during a backoff wait.
func TestDoerWaitIsCancellable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		mt := httpmock.NewMockTransport()
		d := &Doer{HTTPClient: &http.Client{Transport: mt}, Policy: DefaultPolicy()}
		mt.RegisterResponder("GET", "https://x.test/a", func(*http.Request) (*http.Response, error) {
			r := httpmock.NewStringResponse(429, `{}`)
			r.Header.Set("Retry-After", "50")
			return r, nil
		})
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(2*time.Second, cancel)
		start := time.Now()
		req, _ := http.NewRequestWithContext(ctx, "GET", "https://x.test/a", nil)
		_, err := d.Do(req, nil)
		assert.ErrorIs(t, err, context.Canceled)
		assert.Equal(t, 2*time.Second, time.Since(start))
		assert.Equal(t, 1, mt.GetTotalCallCount())
	})
}
