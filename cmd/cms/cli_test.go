package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUsageExitsTwo: an unknown flag, an unknown command and a wrong number
// of arguments are usage errors (2), with flags anywhere on the line.
func TestUsageExitsTwo(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := newCLI(t, srv)
	for _, args := range [][]string{
		{"ls", "--no-such-flag", "0"},
		{"ls", "0", "--no-such-flag"},
		{"--no-such-flag", "ls", "0"},
		{"frobnicate"},
		{"ls", "0", "1"},
		{"upload", "only-one-arg"},
		{"mkdir", "0"},
	} {
		code, _, errOut := c.run(args...)
		assert.Equal(t, exitUsage, code, "%v: %s", args, errOut)
		assert.Equal(t, 1, strings.Count(errOut, "cms:"), "%v: one prefix: %s", args, errOut)
	}
	code, _, errOut := c.run("lss", "0")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, `did you mean "ls"`)
	code, out, _ := c.run("--help")
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "130  interrupted", "the exit statuses are in cms --help")
	code, out, _ = c.run("completion", "bash")
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "bash completion")
	code, out, _ = c.run("version")
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "cms ")
}

// TestErrorsReadable: a service error carries one "cms:" prefix, the
// command's name, a decoded URL without its query, the service's code, and
// never the token; with --json it is a JSON object on stdout too.
func TestErrorsReadable(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := newCLI(t, srv)
	code, out, errOut := c.run("ls", "999999", "--json")
	assert.Equal(t, exitNotFound, code)
	assert.Equal(t, 1, strings.Count(errOut, "cms:"), errOut)
	assert.True(t, strings.HasPrefix(errOut, "cms: ls: "), errOut)
	assert.Contains(t, errOut, "/folders/999999/items:")
	assert.NotContains(t, errOut, "%2C", "no URL-encoded query")
	assert.NotContains(t, errOut, "fields=")
	assert.NotContains(t, errOut, srv.UserToken())
	var obj errorJSON
	require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(out)), &obj), "stdout: %q", out)
	assert.Equal(t, exitNotFound, obj.ExitCode)
	assert.Equal(t, 404, obj.Status)
	assert.Equal(t, "not_found", obj.Code)
	assert.Equal(t, strings.TrimSpace(errOut), obj.Error)

	// A usage error with --json is an object too.
	code, out, _ = c.run("ls", "--json", "--bogus")
	assert.Equal(t, exitUsage, code)
	require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(out)), &obj), "stdout: %q", out)
	assert.Equal(t, exitUsage, obj.ExitCode)

	// A refused token: auth, and the token is not shown.
	c.env["CMS_TOKEN"] = "not-a-token-at-all"
	code, _, errOut = c.run("ls", "0")
	assert.Equal(t, exitAuth, code, errOut)
	assert.NotContains(t, errOut, "not-a-token-at-all")
}
