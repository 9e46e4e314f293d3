package main

import (
	"testing"

	"github.com/contentapi/cms/examples/internal/envtest"
	"github.com/contentapi/cms/refserver"
)

// TestFromEnvironment runs the example against a service named by the
// environment (CMS_BASE_URL, CMS_UPLOAD_URL, CMS_TOKEN), here a reference
// server whose upload root is not the public one: the example connects
// through it, and its uploads land on that server's upload root.
func TestFromEnvironment(t *testing.T) {
	srv := envtest.ServeFromEnv(t, refserver.RoleAdmin, refserver.Options{})
	envtest.CheckRun(t, srv, run)
}
