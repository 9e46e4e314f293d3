package main

import (
	"bytes"
	"context"
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/contentapi/cms/cmd/internal/serveflags"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestServeEnv: cms serve --env prints one eval-able export line, quoted
// for a shell, with every flag of cmd/refserver accepted.
func TestServeEnv(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var out syncBuffer
	done := make(chan int)
	go func() {
		done <- run(ctx, []string{"serve", "--env", "--user-token", "it's-a-token", "--seed", "--part-size", "1048576", "--request-log", "10"},
			&out, &bytes.Buffer{}, func(string) string { return "" })
	}()
	require.Eventually(t, func() bool { return strings.HasSuffix(out.String(), "\n") }, 10*time.Second, 10*time.Millisecond)
	line := out.String()
	assert.True(t, strings.HasPrefix(line, "export CMS_BASE_URL='http://127.0.0.1:"), line)
	assert.Contains(t, line, " CMS_UPLOAD_URL='http://")
	assert.Contains(t, line, ` CMS_TOKEN='it'\''s-a-token'`+"\n")
	cancel()
	assert.Equal(t, exitOK, <-done)
}

// TestServeHasEveryRefserverFlag: the flags come from the one shared
// definition, so none is missing from cms serve.
func TestServeHasEveryRefserverFlag(t *testing.T) {
	fs := flag.NewFlagSet("refserver", flag.ContinueOnError)
	serveflags.Register(fs)
	a := &app{stdin: eofReader{}, stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, getenv: func(string) string { return "" }}
	serve := a.serveCmd()
	fs.VisitAll(func(f *flag.Flag) {
		if f.Name == serveflags.VerboseFlag {
			return // cms's own -v sets it
		}
		assert.NotNil(t, serve.Flags().Lookup(f.Name), f.Name)
	})
	code, _, errOut := (&cli{t: t, env: map[string]string{}}).run("serve", "--part-size", "-1")
	assert.Equal(t, exitUsage, code, errOut)
	assert.Contains(t, errOut, "must not be negative")
}
