package cms

import (
	"context"
	"errors"
	"time"
)

// PollOptions tune the helpers that wait for an asynchronous change
// (WaitForStatus, WaitDeleted).
type PollOptions struct {
	// Interval is the time between two reads. Like every option it follows
	// the package's rule for zero and negative values: 0 means the default,
	// 1 s; a negative interval is an *ArgError, returned before anything is
	// sent.
	Interval time.Duration
}

// defaultPollInterval is PollOptions.Interval's default.
const defaultPollInterval = time.Second

// ErrWaitStopped is matched by the error of a wait helper when the status
// it waits for can no longer come (a released policy never becomes active).
var ErrWaitStopped = errors.New("cms: status cannot be reached")

// poll checks ctx and opts, then calls check every interval until it
// reports done, an error, or ctx ends. It waits with the client's sleep
// hook (WithSleep), like the retry and 202 waits.
func (c *Client) poll(ctx context.Context, opts *PollOptions, check func() (bool, error)) error {
	if err := checkCtx(ctx); err != nil {
		return err
	}
	interval := defaultPollInterval
	if opts != nil {
		switch {
		case opts.Interval < 0:
			return invalidArg("poll interval", "negative")
		case opts.Interval > 0:
			interval = opts.Interval
		}
	}
	for {
		done, err := check()
		if err != nil || done {
			return err
		}
		if err := c.sleep(ctx, interval); err != nil {
			return err
		}
	}
}
