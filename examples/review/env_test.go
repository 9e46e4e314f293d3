package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/contentapi/cms/examples/internal/connect/connecttest"
	"github.com/contentapi/cms/refserver"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFromEnvironment runs the example against a service named by the
// environment (CMS_BASE_URL, CMS_UPLOAD_URL, CMS_TOKEN), here a reference
// server whose upload root is not the public one: the example connects
// through it, and its uploads land on that server's upload root.
func TestFromEnvironment(t *testing.T) {
	srv := connecttest.ServeFromEnv(t, refserver.RoleUser, refserver.Options{})
	t.Setenv("CMS_REVIEWER_TOKEN", srv.AdminToken())
	t.Setenv("CMS_REVIEWER_LOGIN", "admin@cms.test")
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out))
	assert.True(t, strings.HasPrefix(out.String(), "Connected to "+srv.BaseURL()), out.String())
	assert.Positive(t, connecttest.Uploads(srv), "uploads went to CMS_UPLOAD_URL")
}
