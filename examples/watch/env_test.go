package main

import (
	"net"
	"testing"

	"github.com/contentapi/cms/examples/internal/envtest"
	"github.com/contentapi/cms/refserver"
	"github.com/stretchr/testify/require"
)

// TestFromEnvironment runs the example against a service named by the
// environment (CMS_BASE_URL, CMS_UPLOAD_URL, CMS_TOKEN, and the webhook
// variables), here a reference server whose upload root is not the public
// one.
func TestFromEnvironment(t *testing.T) {
	srv := envtest.ServeFromEnv(t, refserver.RoleUser, refserver.Options{})
	ln, err := net.Listen("tcp", "127.0.0.1:0") // a free port for the receiver
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	primary, secondary := srv.WebhookKeys()
	t.Setenv("CMS_WEBHOOK_LISTEN", addr)
	t.Setenv("CMS_WEBHOOK_ADDRESS", "http://"+addr+"/hook")
	t.Setenv("CMS_WEBHOOK_PRIMARY_KEY", primary)
	t.Setenv("CMS_WEBHOOK_SECONDARY_KEY", secondary)
	envtest.CheckRun(t, srv, run)
}
