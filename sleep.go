package cms

import (
	"context"
	"errors"
	"time"
)

// WithSleep replaces how the client waits between attempts: the backoff and
// Retry-After waits before a retry, and the waits after a 202 (content not
// ready, commit still processing). sleep must wait for d, or less, and
// return ctx.Err() if ctx ends first. Without this option the client uses
// real timers; a nil sleep is an error (NewClient refuses it).
//
// It is for tests: give the client the same fake clock as the reference
// server (refserver.Options.Now), so that an injected 429 with
// Retry-After: 1 or a 202 "not ready" window costs no real time. cmstest's
// Clock provides both halves. Under testing/synctest real timers are
// already fake and this option is not needed.
func WithSleep(sleep func(ctx context.Context, d time.Duration) error) Option {
	return func(c *config) error {
		if sleep == nil {
			return errors.New("sleep function is nil")
		}
		c.sleep = sleep
		return nil
	}
}

// sleep waits d with the client's sleep hook, else a timer; ctx.Err() when
// ctx ends first.
func (c *Client) sleep(ctx context.Context, d time.Duration) error {
	if c.cfg.sleep != nil {
		return c.cfg.sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
