package cms

import (
	"cmp"
	"context"
	"errors"
	"iter"
	"log/slog"
	"math/rand/v2"
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
	// RetryDelay is the first wait after a failed long poll (a transport
	// error, a status outside 2xx, an answer that is not JSON); it doubles
	// up to a minute and starts again after a poll that works (default 1s).
	// It is also the base of the jittered wait after polls answered at once
	// (see Stream).
	// The waits use the client's sleep (WithSleep).
	RetryDelay time.Duration
}

const (
	defaultEventRemember = 5000
	defaultEventRetry    = time.Second
	maxEventRetry        = time.Minute
	defaultPollRetries   = 10
)

// Stream yields the user's events as they happen: it reads pages of GET
// /events from the start position, and when a page comes back empty it
// long-polls a realtime server (OPTIONS /events) until the service reports
// a change, then reads again. As the spec says: after "reconnect" it asks
// OPTIONS /events for a server again, as it does once a server's
// max_retries polls are used or its ttl has passed; a poll without an
// answer in retry_timeout seconds is made again at once; a failed poll is
// made again after RetryDelay, doubling. A poll answered in less than 5 s
// (a server saying reconnect at once) makes the stream wait before the next
// one: a random half to all of RetryDelay, doubled per such answer in a
// row up to a minute, until a poll holds the line or a change brings
// events. It always resumes from the last position, and drops events whose
// event_id it has yielded already (the last Remember ids: memory stays
// bounded). It stops when the loop breaks
// or ctx ends; a failed page or OPTIONS call (after the client's retries)
// is yielded as an error and ends it.
func (s *EventsService) Stream(ctx context.Context, opts *EventStreamOptions) iter.Seq2[*Event, error] {
	o := EventStreamOptions{}
	if opts != nil {
		o = *opts
	}
	return func(yield func(*Event, error) bool) {
		if err := firstErr(checkCtx(ctx), checkEnum("stream type", o.StreamType, EventStreamTypeAll, EventStreamTypeChanges, EventStreamTypeSync),
			checkLimit(o.Limit), checkNonNegative("remember", o.Remember), checkNonNegative("retry delay", o.RetryDelay)); err != nil {
			yield(nil, err)
			return
		}
		st := &streamState{s: s, o: o, seen: newIDRing(o.Remember, defaultEventRemember)}
		st.run(ctx, yield)
	}
}

// checkNonNegative refuses a negative option (zero means its default).
func checkNonNegative[N int | time.Duration](arg string, v N) error {
	if v < 0 {
		return invalidArg(arg, "negative")
	}
	return nil
}

// streamState is one running Stream.
type streamState struct {
	s       *EventsService
	o       EventStreamOptions
	pos     StreamPosition
	seen    *idRing
	server  *RealtimeServer
	expires time.Time // the server's ttl; zero: none given
	retries int       // polls made on server
	// quick counts the polls in a row that came back before minLongPoll
	// without a change that brought events (a server answering reconnect
	// at once): each makes the next poll wait longer (pause). A poll that
	// held the line, or a page with events, resets it.
	quick int
}

// minLongPoll is how long a long poll must hold the line to count as one:
// a quicker answer makes the stream back off before it polls again.
const minLongPoll = 5 * time.Second

// pause is the jittered wait before the next poll after quick answers in a
// row: RetryDelay doubled per quick answer up to a minute, of which a
// random half to all is waited (so that many streams do not poll in step).
func (st *streamState) pause() time.Duration {
	d := st.retryDelay()
	for i := 1; i < st.quick && d < maxEventRetry; i++ {
		d *= 2
	}
	d = min(d, maxEventRetry)
	return d/2 + rand.N(d/2+1)
}

func (st *streamState) setPos(p StreamPosition) {
	st.pos = p
	if st.o.Position != nil {
		*st.o.Position = p
	}
}

func (st *streamState) run(ctx context.Context, yield func(*Event, error) bool) {
	st.setPos(cmp.Or(st.o.StreamPosition, "now"))
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
			st.quick = 0
			continue // read on until a page is empty
		}
		if err := st.waitForChange(ctx); err != nil {
			if ctx.Err() == nil {
				yield(nil, err)
			}
			return
		}
	}
}

// waitForChange long-polls until a realtime server reports a change. It
// returns an error when ctx ends or OPTIONS /events fails.
func (st *streamState) waitForChange(ctx context.Context) error {
	delay := st.retryDelay()
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if st.quick > 0 { // the last poll came back at once: back off
			if err := st.s.client.sleep(ctx, st.pause()); err != nil {
				return err
			}
		}
		if st.server == nil || st.retries >= cmp.Or(st.server.MaxRetries, defaultPollRetries) ||
			(!st.expires.IsZero() && !time.Now().Before(st.expires)) {
			if err := st.newServer(ctx); err != nil {
				return err
			}
		}
		st.retries++
		began := time.Now()
		res, err := st.s.longPoll(ctx, st.server, st.pos)
		if err == nil {
			if time.Since(began) >= minLongPoll {
				st.quick = 0
			} else {
				st.quick++
			}
		}
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			if l := st.s.client.cfg.logger; l != nil {
				l.LogAttrs(ctx, slog.LevelDebug, "cms long poll failed", slog.String("error", err.Error()), slog.Duration("retry_in", delay))
			}
			if err := st.s.client.sleep(ctx, delay); err != nil {
				return err
			}
			delay = min(delay*2, maxEventRetry)
		case res == pollNewChange:
			return nil
		case res == pollReconnect:
			st.server, delay = nil, st.retryDelay() // ask OPTIONS /events again
		default: // pollTimedOut: the same server again, at once
			delay = st.retryDelay()
		}
	}
}

// newServer asks OPTIONS /events for a realtime server.
func (st *streamState) newServer(ctx context.Context) error {
	servers, _, err := st.s.LongPollServers(ctx)
	if err != nil {
		return err
	}
	st.server, st.retries, st.expires = nil, 0, time.Time{}
	for _, srv := range servers.Entries {
		if srv != nil && (srv.Type == "realtime_server" || srv.Type == "") && srv.URL != "" {
			st.server = srv
			break
		}
	}
	if st.server == nil {
		return errors.New("cms: OPTIONS /events named no realtime server")
	}
	if st.server.TTL > 0 {
		st.expires = time.Now().Add(time.Duration(st.server.TTL) * time.Minute)
	}
	return nil
}

func (st *streamState) retryDelay() time.Duration {
	if st.o.RetryDelay > 0 {
		return st.o.RetryDelay
	}
	return defaultEventRetry
}

// idRing remembers the last n ids.
type idRing struct {
	ids  []string
	next int
	set  map[string]struct{}
}

func newIDRing(n, def int) *idRing {
	if n <= 0 {
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
