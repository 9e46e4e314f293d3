package cms

import (
	"cmp"
	"context"
	"iter"
	"strconv"
	"time"
)

// EnterpriseEventsOptions are the options of EventsService.EnterpriseStream.
type EnterpriseEventsOptions struct {
	// StreamType is EventStreamTypeAdminLogs (the default: the history of
	// up to a year, in order, without duplicates) or
	// EventStreamTypeAdminLogsStreaming (two weeks, near real time, in
	// roughly the order of processing, with duplicates the stream drops).
	StreamType EventStreamType
	// StreamPosition is where to start: empty or "0" (the oldest event
	// kept, within CreatedAfter/CreatedBefore on admin_logs), "now" (the
	// newest position: with PollInterval, what happens from here on), or a
	// position an earlier stream reached (Position).
	StreamPosition StreamPosition
	// Limit is the page size (the service's default 100, at most 500).
	Limit int
	// EventTypes keeps only these event types (query event_type).
	EventTypes []EventType
	// CreatedAfter and CreatedBefore bound the events' times (admin_logs
	// only: admin_logs_streaming does not take them, and the SDK refuses
	// them there).
	CreatedAfter, CreatedBefore time.Time
	// PollInterval is what the stream does once it has caught up (a page
	// with no events, or one that does not move the position): 0 ends the
	// stream there; a positive interval waits that long (with the client's
	// sleep, WithSleep) and asks again from the last position, until the
	// loop breaks or ctx ends. The enterprise streams cannot be long-polled.
	PollInterval time.Duration
	// Position, when set, receives every position the stream reaches, so
	// that a later stream can resume there.
	Position *StreamPosition
	// Remember is how many event ids the stream keeps to drop duplicates
	// (default 5000): the memory is bounded, a duplicate older than that
	// passes. admin_logs_streaming documents duplicates; admin_logs sends
	// none.
	Remember int
}

// EnterpriseStream yields the enterprise's events (GET /events with
// stream_type admin_logs or admin_logs_streaming; admins only, others get
// an *APIError matching ErrAccessDeniedInsufficientPermissions): page
// after page from StreamPosition, following next_stream_position, each
// event once (by event_id, over the last Remember ids), until a page comes
// back empty (then, with PollInterval, again after the interval). Short
// pages do not end it: the service documents pages shorter than the limit
// while more events follow. It stops when the loop breaks or ctx ends; a
// failed page (after the client's retries) is yielded as the error that
// ends it. Bad options are an *ArgError, yielded before anything is sent.
func (s *EventsService) EnterpriseStream(ctx context.Context, opts *EnterpriseEventsOptions) iter.Seq2[*Event, error] {
	o := EnterpriseEventsOptions{}
	if opts != nil {
		o = *opts
		o.EventTypes = append([]EventType(nil), opts.EventTypes...)
	}
	return func(yield func(*Event, error) bool) {
		if err := checkEnterpriseEvents(ctx, &o); err != nil {
			yield(nil, err)
			return
		}
		seen := newIDRing(o.Remember, defaultEventRemember)
		get := EventsOptions{StreamType: cmp.Or(o.StreamType, EventStreamTypeAdminLogs), StreamPosition: o.StreamPosition,
			Limit: o.Limit, EventTypes: o.EventTypes, CreatedAfter: o.CreatedAfter, CreatedBefore: o.CreatedBefore}
		for {
			page, _, err := s.Get(ctx, &get)
			if err != nil {
				if ctx.Err() == nil {
					yield(nil, err)
				}
				return
			}
			sent := get.StreamPosition
			if page.NextStreamPosition != "" {
				get.StreamPosition = page.NextStreamPosition
				if o.Position != nil {
					*o.Position = page.NextStreamPosition
				}
			}
			for _, e := range page.Entries {
				if e == nil || e.EventID != "" && !seen.add(e.EventID) {
					continue
				}
				if !yield(e, nil) {
					return
				}
			}
			caughtUp := len(page.Entries) == 0 || get.StreamPosition == sent
			if !caughtUp {
				continue
			}
			if o.PollInterval == 0 {
				return
			}
			if err := s.client.sleep(ctx, o.PollInterval); err != nil {
				return // ctx ended
			}
		}
	}
}

// checkEnterpriseEvents checks EnterpriseStream's options.
func checkEnterpriseEvents(ctx context.Context, o *EnterpriseEventsOptions) error {
	if err := firstErr(checkCtx(ctx),
		checkEnum("stream type", o.StreamType, EventStreamTypeAdminLogs, EventStreamTypeAdminLogsStreaming),
		checkLimit(o.Limit), checkNonNegative("poll interval", o.PollInterval), checkNonNegative("remember", o.Remember),
		checkStreamPosition(o.StreamPosition)); err != nil {
		return err
	}
	for _, t := range o.EventTypes {
		if t == "" {
			return invalidArg("event type", "empty")
		}
	}
	switch {
	case o.StreamType == EventStreamTypeAdminLogsStreaming && (!o.CreatedAfter.IsZero() || !o.CreatedBefore.IsZero()):
		return invalidArg("created after/before", "admin_logs_streaming does not take them: use admin_logs")
	case !o.CreatedAfter.IsZero() && !o.CreatedBefore.IsZero() && o.CreatedAfter.After(o.CreatedBefore):
		return invalidArg("created after", "after created before")
	}
	return nil
}

// checkStreamPosition accepts "", "now", or a position: digits, as the
// service's are.
func checkStreamPosition(p StreamPosition) error {
	if p == "" || p == "now" {
		return nil
	}
	if _, err := strconv.ParseUint(string(p), 10, 64); err != nil {
		return invalidArg("stream position", "now, 0 or a position the service gave")
	}
	return nil
}
