package main

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/contentapi/cms/refserver"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFromEnvironment runs the example against a service named by the
// environment (CMS_APP_CONFIG, CMS_BASE_URL, CMS_UPLOAD_URL, CMS_USER_ID),
// here a reference server whose upload root is not the public one; without
// CMS_UPLOAD_URL the SDK refuses to pair that API root with the public
// upload root.
func TestFromEnvironment(t *testing.T) {
	srv, err := refserver.Start(refserver.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { srv.Close() })
	path := filepath.Join(t.TempDir(), "config.json")
	_, err = srv.WriteAppConfig(path)
	require.NoError(t, err)
	t.Setenv("CMS_APP_CONFIG", path)
	t.Setenv("CMS_BASE_URL", srv.BaseURL())
	t.Setenv("CMS_USER_ID", srv.UserID())

	t.Setenv("CMS_UPLOAD_URL", "")
	err = run(context.Background(), &bytes.Buffer{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "add WithUploadURL")

	t.Setenv("CMS_UPLOAD_URL", srv.UploadURL())
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out))
	assert.Contains(t, out.String(), "Deleted folder")
}
