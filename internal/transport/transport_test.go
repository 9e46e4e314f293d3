package transport

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"5", 5 * time.Second, true},
		{" 0 ", 0, true},
		{"", 0, false},
		{"-3", 0, false},
		{"soon", 0, false},
		{"1.5", 0, false},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, true},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0, true},
		{"99999999999999999999", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := ParseRetryAfter(tt.in, now)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

func FuzzParseRetryAfter(f *testing.F) {
	for _, s := range []string{"5", "Wed, 21 Oct 2015 07:28:00 GMT", "", "-1", "9223372036854775807"} {
		f.Add(s)
	}
	now := time.Now()
	f.Fuzz(func(t *testing.T, s string) {
		d, ok := ParseRetryAfter(s, now)
		if d < 0 || (!ok && d != 0) {
			t.Fatalf("ParseRetryAfter(%q) = %v, %v", s, d, ok)
		}
	})
}

func TestWait(t *testing.T) {
	t.Parallel()
	p := Policy{MaxRetries: 5, MinBackoff: 100 * time.Millisecond, MaxBackoff: time.Second, MaxRetryAfter: 10 * time.Second}
	withRA := func(v string) *http.Response { return &http.Response{Header: http.Header{"Retry-After": {v}}} }

	d, ok := Wait(p, 0, withRA("3"), func() float64 { return 0.5 })
	assert.True(t, ok)
	assert.Equal(t, 3*time.Second, d, "Retry-After wins over backoff")

	_, ok = Wait(p, 0, withRA("11"), func() float64 { return 0.5 })
	assert.False(t, ok, "Retry-After above the cap ends the retries")

	for n := range 8 {
		lo, _ := Wait(p, n, nil, func() float64 { return 0 })
		hi, _ := Wait(p, n, nil, func() float64 { return 0.999999 })
		assert.Equal(t, p.MinBackoff, lo)
		assert.LessOrEqual(t, hi, p.MaxBackoff)
		assert.GreaterOrEqual(t, hi, lo)
	}
	hi3, _ := Wait(p, 3, nil, func() float64 { return 0.999999 })
	assert.InDelta(t, float64(800*time.Millisecond), float64(hi3), float64(time.Millisecond), "exponential growth: 100ms·2³")
}

func TestRetryable(t *testing.T) {
	t.Parallel()
	status := func(c int) *http.Response { return &http.Response{StatusCode: c} }
	tests := []struct {
		name       string
		resp       *http.Response
		err        error
		idempotent bool
		want       bool
	}{
		{"429 create", status(429), nil, false, true},
		{"429 get", status(429), nil, true, true},
		{"503 get", status(503), nil, true, true},
		{"502 get", status(502), nil, true, true},
		{"504 get", status(504), nil, true, true},
		{"503 create", status(503), nil, false, false},
		{"500 get", status(500), nil, true, true},
		{"500 create", status(500), nil, false, false},
		{"501 get", status(501), nil, true, false},
		{"404 get", status(404), nil, true, false},
		{"200 get", status(200), nil, true, false},
		{"network get", nil, errors.New("connection reset by peer"), true, true},
		{"network create", nil, errors.New("connection reset by peer"), false, false},
		{"bad scheme", nil, &url.Error{Op: "Get", URL: "ftp://x", Err: errors.New(`unsupported protocol scheme "ftp"`)}, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Retryable(DefaultRetryStatuses(), tt.resp, tt.err, tt.idempotent))
		})
	}
	t.Run("custom statuses", func(t *testing.T) {
		assert.True(t, Retryable([]int{409}, status(409), nil, true))
		assert.False(t, Retryable([]int{409}, status(503), nil, true), "only the listed statuses")
		assert.False(t, Retryable([]int{}, status(429), nil, false), "an empty list retries no status")
		assert.True(t, Retryable([]int{}, nil, errors.New("connection reset by peer"), true), "network errors still are")
	})
}

func TestPolicyDefaultsAndValidate(t *testing.T) {
	t.Parallel()
	d := DefaultPolicy()
	assert.Equal(t, Policy{MaxRetries: 4, MinBackoff: 500 * time.Millisecond, MaxBackoff: 30 * time.Second,
		MaxRetryAfter: time.Minute, RetryStatuses: []int{429, 500, 502, 503, 504}}, d)
	assert.Equal(t, d, Policy{}.WithDefaults(), "the zero policy is the default")
	assert.Equal(t, d, Policy{}.filled(), "Doer.Do's defaults are the same")
	d.RetryStatuses[0] = 1
	assert.Equal(t, []int{429, 500, 502, 503, 504}, DefaultPolicy().RetryStatuses, "each DefaultPolicy has its own slice")
	assert.Equal(t, []int{429, 500, 502, 503, 504}, Policy{}.filled().RetryStatuses, "changing a DefaultPolicy's slice does not reach the defaults Doer.Do shares")
	d = DefaultPolicy()
	p := Policy{MaxRetries: 3}.WithDefaults()
	assert.Equal(t, 3, p.MaxRetries)
	assert.Equal(t, d.MinBackoff, p.MinBackoff, "zero MinBackoff means the default, not no backoff")
	assert.Equal(t, d.MaxBackoff, p.MaxBackoff)
	assert.Equal(t, d.MaxRetryAfter, p.MaxRetryAfter)
	assert.Equal(t, []int{429, 500, 502, 503, 504}, p.RetryStatuses)
	none := Policy{MaxRetries: -1}.WithDefaults()
	assert.Equal(t, -1, none.MaxRetries, "negative means none")
	assert.Equal(t, none, none.WithDefaults(), "applying the defaults twice changes nothing")
	assert.Equal(t, time.Minute, Policy{MinBackoff: time.Minute}.WithDefaults().MaxBackoff, "a default MaxBackoff is never below MinBackoff")
	mine := []int{503}
	q := Policy{RetryStatuses: mine}.WithDefaults()
	q.RetryStatuses[0] = 1
	assert.Equal(t, 503, mine[0], "the caller's slice is not shared")

	for name, bad := range map[string]Policy{
		"negative duration": {MinBackoff: -1},
		"inverted backoff":  {MinBackoff: 2 * time.Second, MaxBackoff: time.Second},
		"success status":    {RetryStatuses: []int{200}},
		"not a status":      {RetryStatuses: []int{1000}},
	} {
		assert.Error(t, bad.Validate(), name)
	}
	assert.NoError(t, Policy{MaxRetries: -1}.Validate())
	assert.NoError(t, Policy{}.Validate())
}

// TestDoerZeroBackoffMeansDefault: a policy that sets only MaxRetries waits
// the default minimum backoff between attempts, not zero.
func TestDoerZeroBackoffMeansDefault(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	var times []time.Time
	mt.RegisterResponder("GET", "https://x.test/a", func(*http.Request) (*http.Response, error) {
		times = append(times, time.Now())
		return httpmock.NewStringResponse(503, `{}`), nil
	})
	d := &Doer{HTTPClient: &http.Client{Transport: mt}, Policy: Policy{MaxRetries: 1}, Rand: func() float64 { return 0 }}
	resp, err := d.Do(get(t, context.Background(), "GET", "https://x.test/a"), nil)
	require.NoError(t, err)
	resp.Body.Close()
	require.Len(t, times, 2)
	assert.GreaterOrEqual(t, times[1].Sub(times[0]), 500*time.Millisecond)
}

// fastPolicy retries quickly without Retry-After.
var fastPolicy = Policy{MaxRetries: 3, MinBackoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond, MaxRetryAfter: time.Minute}

func newMock(t *testing.T) (*httpmock.MockTransport, *Doer) {
	t.Helper()
	mt := httpmock.NewMockTransport()
	return mt, &Doer{HTTPClient: &http.Client{Transport: mt}, Policy: fastPolicy}
}

func bytesBody(s string) *Body {
	return &Body{Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(s)), nil }, ContentLength: int64(len(s)), Replayable: true}
}

func get(t *testing.T, ctx context.Context, method, url string) *http.Request {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	require.NoError(t, err)
	return req
}

func TestDoerAttempts(t *testing.T) {
	t.Parallel()
	const u = "https://api.example.test/2.0/files/1"
	tests := []struct {
		name      string
		method    string
		ctx       func(context.Context) context.Context
		statuses  []int // answers in order; the last repeats
		netErr    bool
		wantCalls int
		wantCode  int
	}{
		{name: "get retried on 503 until success", method: "GET", statuses: []int{503, 502, 200}, wantCalls: 3, wantCode: 200},
		{name: "get gives up after MaxRetries", method: "GET", statuses: []int{504}, wantCalls: 4, wantCode: 504},
		{name: "create not retried on 503", method: "POST", statuses: []int{503}, wantCalls: 1, wantCode: 503},
		{name: "create retried on 429", method: "POST", statuses: []int{429, 201}, wantCalls: 2, wantCode: 201},
		{name: "marked idempotent create retried on 503", method: "POST", ctx: WithIdempotent, statuses: []int{503, 201}, wantCalls: 2, wantCode: 201},
		{name: "get retried on 500", method: "GET", statuses: []int{500, 200}, wantCalls: 2, wantCode: 200},
		{name: "create not retried on 500", method: "POST", statuses: []int{500}, wantCalls: 1, wantCode: 500},
		{name: "501 not retried", method: "GET", statuses: []int{501}, wantCalls: 1, wantCode: 501},
		{name: "delete retried", method: "DELETE", statuses: []int{503, 204}, wantCalls: 2, wantCode: 204},
		{name: "per-call policy without retries", method: "GET", ctx: func(c context.Context) context.Context { return WithPolicy(c, Policy{MaxRetries: -1}) }, statuses: []int{503}, wantCalls: 1, wantCode: 503},
		{name: "network error on get retried", method: "GET", netErr: true, wantCalls: 4},
		{name: "network error on create not retried", method: "POST", netErr: true, wantCalls: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mt, d := newMock(t)
			calls := 0
			mt.RegisterResponder(tt.method, u, func(r *http.Request) (*http.Response, error) {
				calls++
				if tt.netErr {
					return nil, errors.New("connection reset by peer")
				}
				b, _ := io.ReadAll(r.Body)
				assert.Equal(t, "payload", string(b), "every attempt carries the whole body")
				return httpmock.NewStringResponse(tt.statuses[min(calls-1, len(tt.statuses)-1)], `{}`), nil
			})
			ctx := context.Background()
			if tt.ctx != nil {
				ctx = tt.ctx(ctx)
			}
			resp, err := d.Do(get(t, ctx, tt.method, u), bytesBody("payload"))
			assert.Equal(t, tt.wantCalls, calls)
			if tt.netErr {
				require.Error(t, err)
				assert.NotContains(t, err.Error(), "giving up", "the transport error itself reaches the caller")
				return
			}
			require.NoError(t, err)
			defer resp.Body.Close()
			assert.Equal(t, tt.wantCode, resp.StatusCode, "the last response reaches the caller")
		})
	}
}

func TestDoerNonReplayableBodyIsNotRetried(t *testing.T) {
	t.Parallel()
	mt, d := newMock(t)
	mt.RegisterResponder("PUT", "https://x.test/a", httpmock.NewStringResponder(429, `{}`))
	opened := 0
	body := &Body{Open: func() (io.ReadCloser, error) { opened++; return io.NopCloser(strings.NewReader("x")), nil }, ContentLength: 1}
	resp, err := d.Do(get(t, context.Background(), "PUT", "https://x.test/a"), body)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 1, opened)
	assert.Equal(t, 1, mt.GetTotalCallCount())
}

func TestDoerRetryAfterAboveCapReturnsResponse(t *testing.T) {
	t.Parallel()
	mt, d := newMock(t)
	d.Policy.MaxRetryAfter = 5 * time.Second
	mt.RegisterResponder("GET", "https://x.test/a", func(*http.Request) (*http.Response, error) {
		r := httpmock.NewStringResponse(429, `{"code":"rate_limit_exceeded"}`)
		r.Header.Set("Retry-After", "120")
		return r, nil
	})
	resp, err := d.Do(get(t, context.Background(), "GET", "https://x.test/a"), nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, 429, resp.StatusCode)
	assert.Equal(t, "120", resp.Header.Get("Retry-After"))
	assert.Equal(t, 1, mt.GetTotalCallCount())
}

func TestDoerRetryAfterPastDeadlineReturnsResponse(t *testing.T) {
	t.Parallel()
	mt, d := newMock(t)
	mt.RegisterResponder("GET", "https://x.test/a", func(*http.Request) (*http.Response, error) {
		r := httpmock.NewStringResponse(503, `{}`)
		r.Header.Set("Retry-After", "30")
		return r, nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := d.Do(get(t, ctx, "GET", "https://x.test/a"), nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, 503, resp.StatusCode)
	assert.Equal(t, 1, mt.GetTotalCallCount(), "no wait that outlives the deadline")
}

func TestRedactURL(t *testing.T) {
	t.Parallel()
	got := RedactURLString("https://user:pw@dl.example.test/d/1?access_token=SECRET&version=2&shared_link_password=PW")
	assert.NotContains(t, got, "SECRET")
	assert.NotContains(t, got, "PW")
	assert.NotContains(t, got, "user:pw")
	assert.Contains(t, got, "version=2")
	assert.Equal(t, "[unparsable url]", RedactURLString("http://[::1"))
	assert.Contains(t, redactFreeText(`Get "https://x.test/a?access_token=SECRET": EOF`), "REDACTED")
}
