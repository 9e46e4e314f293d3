package cmstest

import (
	"context"
	"sync"
	"time"
)

// Clock is a fake clock to share between a server and its clients, so that
// waits cost no real time: give Now to the server (Options.Now) and Sleep to
// the clients (cms.WithSleep). A Sleep advances the clock by its duration at
// once, so an injected 429 with Retry-After: 30, or a 202 "not ready" window,
// passes instantly while the server sees the time go by.
//
//	clock := cmstest.NewClock(time.Now())
//	srv := cmstest.NewServer(t, cmstest.Options{Now: clock.Now, ContentNotReady: time.Minute})
//	client := srv.Client(t, cms.WithSleep(clock.Sleep))
//
// Concurrent sleepers each advance the clock by their own duration. It is
// safe for concurrent use.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock that reads start until it is advanced.
func NewClock(start time.Time) *Clock { return &Clock{now: start} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d (negative d is ignored).
func (c *Clock) Advance(d time.Duration) {
	if d <= 0 {
		return
	}
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// Sleep advances the clock by d and returns at once, or returns ctx.Err()
// without advancing when ctx is already done. Its signature fits
// cms.WithSleep.
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.Advance(d)
	return nil
}
