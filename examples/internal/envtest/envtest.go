// Package envtest points the environment of an example's test at a
// reference server, as a user points an example at a real service.
package envtest

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/contentapi/cms"
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
	t.Setenv(cms.EnvBaseURL, ep.BaseURL)
	t.Setenv(cms.EnvUploadURL, ep.UploadURL)
	t.Setenv(cms.EnvToken, ep.Token)
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

// CheckRun runs an example's run against srv (the environment pointed at it
// by ServeFromEnv) and checks what every example must show: it connected to
// srv, and its uploads reached srv's upload root, which is not the public
// one.
func CheckRun(t testing.TB, srv *refserver.Server, run func(context.Context, io.Writer) error) {
	t.Helper()
	var out bytes.Buffer
	if err := run(context.Background(), &out); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	if want := "Connected to " + srv.BaseURL(); !strings.HasPrefix(out.String(), want) {
		t.Errorf("the first line is not %q:\n%s", want, out.String())
	}
	if Uploads(srv) == 0 {
		t.Error("no upload reached CMS_UPLOAD_URL")
	}
}
