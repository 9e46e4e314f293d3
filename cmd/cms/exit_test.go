package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"testing"

	"github.com/contentapi/cms"
	"github.com/stretchr/testify/assert"
)

// TestExitCodeKinds: every kind of failure maps to its documented status
// (the commands' own tests run most of them end to end).
func TestExitCodeKinds(t *testing.T) {
	ctx := context.Background()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	api := func(status int) error {
		return fmt.Errorf("uploading: %w", &cms.APIError{StatusCode: status, Method: "GET", URL: "http://h/2.0/files/1"})
	}
	for _, tc := range []struct {
		ctx  context.Context
		err  error
		want int
	}{
		{ctx, nil, exitOK},
		{ctx, errors.New("boom"), exitFailed},
		{ctx, api(400), exitFailed},
		{ctx, usagef("bad"), exitUsage},
		{ctx, api(404), exitNotFound},
		{ctx, fmt.Errorf("x: %w", errNotFound), exitNotFound},
		{ctx, &os.PathError{Op: "stat", Path: "x", Err: os.ErrNotExist}, exitNotFound},
		{ctx, api(409), exitConflict},
		{ctx, api(412), exitConflict},
		{ctx, api(429), exitRetryable},
		{ctx, api(503), exitRetryable},
		{ctx, &net.OpError{Op: "dial", Err: errors.New("connection refused")}, exitRetryable},
		{ctx, context.DeadlineExceeded, exitRetryable},
		{ctx, api(401), exitAuth},
		{ctx, api(403), exitAuth},
		{ctx, errNoCredentials, exitAuth},
		{ctx, errPartial, exitPartial},
		{cancelled, fmt.Errorf("x: %w", context.Canceled), exitInterrupted},
		{ctx, errInterrupted, exitInterrupted},
	} {
		assert.Equal(t, tc.want, exitCode(tc.ctx, tc.err), "%v", tc.err)
	}
}

// TestRefuseWhatCannotBeHonoured: --dry-run is not ignored by a command
// that cannot say beforehand what it would do (it would then do it).
func TestRefuseWhatCannotBeHonoured(t *testing.T) {
	c := &cli{t: t, env: map[string]string{}}
	for _, args := range [][]string{
		{"share", "--dry-run", "file:1"},
		{"collab", "rm", "--dry-run", "1"},
		{"trash", "restore", "--dry-run", "file:1"},
		{"versions", "promote", "--dry-run", "file:1", "2"},
	} {
		code, _, errOut := c.run(args...)
		assert.Equal(t, exitUsage, code, "%v: %s", args, errOut)
	}
}
