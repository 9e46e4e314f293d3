package cmstest_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestServersAndClients(t *testing.T) {
	t.Parallel()
	for name, srv := range map[string]*cmstest.Server{
		"sockets":    cmstest.NewServer(t, cmstest.Options{}),
		"in process": cmstest.NewInProcessServer(t, cmstest.Options{}),
	} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			_, _, err := srv.Client(t).Uploads.GetSession(ctx, "ABCDEF")
			assert.ErrorIs(t, err, cms.ErrNotFound, "the user client is authenticated")
			_, _, err = srv.AppClient(t).Uploads.GetSession(ctx, "ABCDEF")
			assert.ErrorIs(t, err, cms.ErrForbidden, "the app token may not use upload sessions")

			// An injected reset reaches the client as a transport error and
			// is retried for idempotent calls.
			srv.Inject(cmstest.Fault{Method: http.MethodGet, Path: "/files/upload_sessions/*", Count: 1, Reset: true})
			c := srv.AdminClient(t, cms.WithRetryPolicy(cms.RetryPolicy{MaxRetries: 2}))
			_, _, err = c.Uploads.GetSession(ctx, "ABCDEF")
			assert.ErrorIs(t, err, cms.ErrNotFound, "the reset was retried")
			require.NotEmpty(t, srv.Requests())
		})
	}
}
