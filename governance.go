package cms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Machinery shared by the governance services (retention and legal holds).

// GovernancePageOptions page the marker-paged governance lists that have
// no filter (files and versions under retention or on hold, file version
// legal holds).
type GovernancePageOptions struct {
	// Marker is where to start: a NextMarker of an earlier page (query
	// marker); empty for the first page.
	Marker string `url:"marker,omitempty"`
	// Limit is the page size (query limit, at most 1000).
	Limit int `url:"limit,omitempty"`
}

// decodeDays reads a number of days sent as a JSON number or a string of
// digits, or the one word a field allows instead ("indefinite", "none").
// null and "" read as zero.
func decodeDays(b []byte, word string) (days int, isWord bool, err error) {
	s := strings.TrimSpace(string(b))
	if s == "null" {
		return 0, false, nil
	}
	if strings.HasPrefix(s, `"`) {
		if err := json.Unmarshal(b, &s); err != nil {
			return 0, false, err
		}
		if s == word {
			return 0, true, nil
		}
		if s == "" {
			return 0, false, nil
		}
	}
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil || n < 0 {
		return 0, false, fmt.Errorf("cms: %q is not a number of days or %q", truncate(s, 32), word)
	}
	return int(n), false, nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

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
