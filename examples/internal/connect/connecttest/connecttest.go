// Package connecttest points the environment of an example's test at a
// reference server, as a user points an example at a real service.
package connecttest

import (
	"testing"

	"github.com/contentapi/cms/examples/internal/connect"
	"github.com/contentapi/cms/refserver"
)

// ServeFromEnv starts a reference server for a test of an example and
// points the environment at it as role, the way a user points an example at
// a real service: CMS_BASE_URL, CMS_UPLOAD_URL and CMS_TOKEN. Its upload
// root is on a port of its own, never the public default, so an example that
// ignored CMS_UPLOAD_URL would fail (NewClient refuses a custom API root
// without an upload root).
func ServeFromEnv(t testing.TB, role refserver.Role, opts refserver.Options) *refserver.Server {
	t.Helper()
	srv, err := refserver.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	ep, err := srv.Endpoint(role)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(connect.EnvBaseURL, ep.BaseURL)
	t.Setenv(connect.EnvUploadURL, ep.UploadURL)
	t.Setenv(connect.EnvToken, ep.Token)
	return srv
}

// Uploads counts the requests srv received on its upload root.
func Uploads(srv *refserver.Server) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Role == "upload" {
			n++
		}
	}
	return n
}
