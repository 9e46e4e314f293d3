package cms

import (
	"cmp"
	"context"
	"iter"
	"time"
)

// EventStreamOptions are the options of EventsService.Stream.
type EventStreamOptions struct {
	// StreamType is EventStreamTypeAll (the default), EventStreamTypeChanges
	// or EventStreamTypeSync: the user streams, which can be long-polled.
	StreamType EventStreamType
	// StreamPosition is where to start: "now" (the default: what happens
	// from here on), "0" (the oldest event kept), or a position an earlier
	// stream reached (Position).
	StreamPosition StreamPosition
	// Limit is the page size (default 100, at most 500).
	Limit int
	// Position, when set, receives every position the stream reaches, so
	// that a later stream can resume there after the program stops.
	Position *StreamPosition
	// Remember is how many event ids the stream keeps to drop the
	// duplicates the service documents (default 5000): the memory is
	// bounded, a duplicate older than that passes.
	Remember int
	// RetryDelay is the first wait after a failed long poll; it doubles up
	// to a minute and starts again after a success (default 1s).
	RetryDelay time.Duration
}

const (
	defaultEventRemember = 5000
	defaultEventRetry    = time.Second
	maxEventRetry        = time.Minute
)

// Stream yields the user's events as they happen: it reads pages of GET
// /events from the start position, and when a page comes back empty it
// long-polls a realtime server (OPTIONS /events) until the service reports
// a change, then reads again. It reconnects when the server says
// "reconnect", when a server's max_retries are used up, and after a failed
// poll (waiting RetryDelay, doubling); it always resumes from the last
// position, and drops events whose event_id it has yielded already. It
// stops when the loop breaks or ctx ends; a failed page or OPTIONS call
// (after the client's retries) is yielded as an error and ends it.
func (s *EventsService) Stream(ctx context.Context, opts *EventStreamOptions) iter.Seq2[*Event, error] {
	o := EventStreamOptions{}
	if opts != nil {
		o = *opts
	}
	return func(yield func(*Event, error) bool) {
		if err := firstErr(checkCtx(ctx), checkEnum("stream type", o.StreamType, EventStreamTypeAll, EventStreamTypeChanges, EventStreamTypeSync), checkLimit(o.Limit)); err != nil {
			yield(nil, err)
			return
		}
		st := &streamState{s: s, o: o, seen: newIDRing(max(o.Remember, 0), defaultEventRemember)}
		st.run(ctx, yield)
	}
}

// streamState is one running Stream.
type streamState struct {
	s       *EventsService
	o       EventStreamOptions
	pos     StreamPosition
	seen    *idRing
	server  *RealtimeServer
	retries int // polls made on server
}

func (st *streamState) setPos(p StreamPosition) {
	st.pos = p
	if st.o.Position != nil {
		*st.o.Position = p
	}
}

func (st *streamState) run(ctx context.Context, yield func(*Event, error) bool) {
	st.setPos(st.o.StreamPosition)
	if st.pos == "" {
		st.setPos("now")
	}
	delay := st.retryDelay()
	for ctx.Err() == nil {
		page, _, err := st.s.Get(ctx, &EventsOptions{StreamType: st.o.StreamType, StreamPosition: st.pos, Limit: st.o.Limit})
		if err != nil {
			if ctx.Err() == nil {
				yield(nil, err)
			}
			return
		}
		if page.NextStreamPosition != "" {
			st.setPos(page.NextStreamPosition)
		}
		for _, e := range page.Entries {
			if e.EventID != "" && !st.seen.add(e.EventID) {
				continue // a duplicate the service sent again
			}
			if !yield(e, nil) {
				return
			}
		}
		if len(page.Entries) > 0 {
			continue // read on until a page is empty
		}
		for ctx.Err() == nil { // wait for a change
			if st.server == nil || st.retries >= cmp.Or(st.server.MaxRetries, 10) {
				servers, _, err := st.s.LongPollServers(ctx)
				if err != nil {
					if ctx.Err() == nil {
						yield(nil, err)
					}
					return
				}
				st.server, st.retries = nil, 0
				for _, srv := range servers.Entries {
					if srv.Type == "realtime_server" || srv.Type == "" {
						st.server = srv
						break
					}
				}
				if st.server == nil {
					yield(nil, invalidArg("events", "OPTIONS /events named no realtime server"))
					return
				}
			}
			st.retries++
			changed, err := st.s.longPoll(ctx, st.server, st.pos)
			if err != nil {
				if !sleepCtx(ctx, delay) {
					return
				}
				delay = min(delay*2, maxEventRetry)
				continue
			}
			delay = st.retryDelay()
			if changed {
				break
			}
			st.server = nil // reconnect: a new server entry
		}
	}
}

func (st *streamState) retryDelay() time.Duration {
	if st.o.RetryDelay > 0 {
		return st.o.RetryDelay
	}
	return defaultEventRetry
}

// sleepCtx waits d or until ctx ends; it reports whether d passed.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// idRing remembers the last n ids.
type idRing struct {
	ids  []string
	next int
	set  map[string]struct{}
}

func newIDRing(n, def int) *idRing {
	if n == 0 {
		n = def
	}
	return &idRing{ids: make([]string, 0, n), set: make(map[string]struct{}, n)}
}

// add remembers id; it reports false when id was remembered already.
func (r *idRing) add(id string) bool {
	if _, ok := r.set[id]; ok {
		return false
	}
	if len(r.ids) < cap(r.ids) {
		r.ids = append(r.ids, id)
	} else {
		delete(r.set, r.ids[r.next])
		r.ids[r.next] = id
		r.next = (r.next + 1) % len(r.ids)
	}
	r.set[id] = struct{}{}
	return true
}
