package cms

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tokenRecorder is a transport that answers every token request with a
// token and records the URLs it was asked for.
type tokenRecorder struct {
	mu   sync.Mutex
	urls []string
}

func (r *tokenRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.urls = append(r.urls, req.URL.String())
	r.mu.Unlock()
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(`{"access_token":"at-1","token_type":"bearer","expires_in":3600}`)), Request: req}, nil
}

func (r *tokenRecorder) seen() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.urls...)
}

// TestAuthPlainHTTPOnlyOnLoopback: token sources and OAuth2 configs refuse
// token and revoke endpoints on plain http to a host that is not loopback
// (the client secret would travel unencrypted), as NewClient refuses such
// roots, before anything is sent; WithAuthInsecureHTTP opts in; https and
// loopback hosts need nothing.
func TestAuthPlainHTTPOnlyOnLoopback(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	app := testAppConfig(t)
	makers := map[string]func(opts ...AuthOption) error{
		"ccg": func(opts ...AuthOption) error {
			ts, err := NewCCGTokenSource(testClientID, testClientSecret, EnterpriseSubject(testEnterprise), opts...)
			if err == nil {
				_, err = ts.TokenContext(ctx)
			}
			return err
		},
		"ccg from config": func(opts ...AuthOption) error {
			ts, err := NewCCGTokenSourceFromConfig(app, opts...)
			if err == nil {
				_, err = ts.TokenContext(ctx)
			}
			return err
		},
		"jwt": func(opts ...AuthOption) error {
			ts, err := NewJWTTokenSource(app, opts...)
			if err == nil {
				_, err = ts.TokenContext(ctx)
			}
			return err
		},
		"oauth2": func(opts ...AuthOption) error {
			_, err := NewOAuth2Config(testClientID, testClientSecret, "https://app.example/callback", opts...)
			return err
		},
		"downscope": func(opts ...AuthOption) error {
			_, err := Downscope(ctx, "at-0", []string{"item_preview"}, "", opts...)
			return err
		},
	}
	for name, make := range makers {
		for _, bad := range []AuthOption{
			WithAuthBaseURL("http://cms.example/2.0"),
			WithAuthBaseURL("http://10.0.0.7:8080/2.0"),
			WithTokenEndpoint("http://auth.example/oauth2/token"),
		} {
			rec := &tokenRecorder{}
			err := make(bad, WithAuthHTTPClient(&http.Client{Transport: rec}))
			require.Error(t, err, name)
			assert.Contains(t, err.Error(), "plain http", name)
			assert.Contains(t, err.Error(), "WithAuthInsecureHTTP", name)
			assert.NotContains(t, err.Error(), testClientSecret, name)
			assert.Empty(t, rec.seen(), "%s: nothing is sent", name)

			// The opt-in may come before or after the endpoint.
			for _, opts := range [][]AuthOption{{bad, WithAuthInsecureHTTP()}, {WithAuthInsecureHTTP(), bad}} {
				rec := &tokenRecorder{}
				require.NoError(t, make(append(opts, WithAuthHTTPClient(&http.Client{Transport: rec}))...), name)
			}
		}
		for _, good := range []AuthOption{
			WithAuthBaseURL("https://cms.example/2.0"),
			WithAuthBaseURL("http://127.0.0.1:8080/2.0"),
			WithAuthBaseURL("http://localhost:8080/2.0"),
			WithAuthBaseURL("http://[::1]:8080/2.0"),
			WithTokenEndpoint("https://auth.example/oauth2/token"),
			nil, // the public service
		} {
			rec := &tokenRecorder{}
			require.NoError(t, make(good, WithAuthHTTPClient(&http.Client{Transport: rec})), name)
		}
	}
}
