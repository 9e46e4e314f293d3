package refserver

import (
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// GET /events, OPTIONS /events and the long poll (spec get_events,
// options_events; the events guide):
//
//   - stream_type all (default), changes (the events that may change a
//     file tree), sync (changes below folders marked synced): the events on
//     items the caller may see now, or saw when the item is gone (its owner
//     then);
//   - stream_type admin_logs and admin_logs_streaming: every event with an
//     enterprise type, for the enterprise admin only (403
//     access_denied_insufficient_permissions otherwise); event_type filters
//     by type, created_after and created_before by time (admin_logs only);
//   - stream_position: "now" answers no events and the newest position; ""
//     or "0" starts at the oldest event kept; a number continues after that
//     position (a position older than the history starts at its oldest
//     event). Anything else is 400 bad_request, as is an unknown
//     stream_type or a malformed date;
//   - limit defaults to 100 and is lowered to 500; a page stops at limit
//     events, or at the end of the history: next_stream_position is the
//     position after the last event looked at, so a page that filtered
//     everything out still moves on. It is a JSON number on the user
//     streams and a string on the enterprise streams (the spec allows
//     either; the service sends both forms);
//   - OPTIONS /events hands out one realtime_server on this API host
//     (/2.0/events/realtime?channel=…): ttl 10 minutes, max_retries 10,
//     retry_timeout LongPollTimeout + 10 s. A GET of that URL with
//     &stream_position=N answers {"message":"new_change"} as soon as an event
//     after N is one the channel's user may see, and {"message":"reconnect"}
//     after LongPollTimeout, or at once for a channel that expired or never
//     was. The channel authorizes the poll: a bearer token is not needed
//     (and is ignored when sent, as the official SDKs do).

const (
	defaultEventLimit = 100
	maxEventLimit     = 500

	defaultLongPollTimeout = 60 * time.Second
	pollChannelTTL         = 10 * time.Minute
	pollMaxRetries         = "10"
	maxPollChannels        = 10_000

	realtimePath = "/events/realtime"
)

// pollChannel is a long-poll channel handed out by OPTIONS /events.
type pollChannel struct {
	p       *principal
	expires time.Time
}

// eventQuery is a parsed GET /events.
type eventQuery struct {
	streamType    string
	now           bool  // stream_position=now
	after         int64 // events after this position
	limit         int64
	types         map[string]bool // admin: event_type
	createdAfter  time.Time
	createdBefore time.Time
}

func (q *eventQuery) admin() bool {
	return q.streamType == "admin_logs" || q.streamType == "admin_logs_streaming"
}

// parseStreamPosition reads a stream position: now, "" or 0, or a number.
func parseStreamPosition(v string) (after int64, now bool, aerr *wire.Error) {
	switch v {
	case "now":
		return 0, true, nil
	case "", "0":
		return 0, false, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, false, wire.BadRequest("Invalid value for \"stream_position\": use now, 0 or a position from next_stream_position")
	}
	return n, false, nil
}

func parseEventQuery(r *http.Request) (*eventQuery, *wire.Error) {
	v := r.URL.Query()
	q := &eventQuery{streamType: v.Get("stream_type")}
	if q.streamType == "" {
		q.streamType = "all"
	}
	if !slices.Contains([]string{"all", "changes", "sync", "admin_logs", "admin_logs_streaming"}, q.streamType) {
		return nil, wire.BadRequest("Invalid value for \"stream_type\": use all, changes, sync, admin_logs or admin_logs_streaming")
	}
	var aerr *wire.Error
	if q.after, q.now, aerr = parseStreamPosition(v.Get("stream_position")); aerr != nil {
		return nil, aerr
	}
	if q.limit, aerr = wire.PageLimit(r.URL.Query(), defaultEventLimit, maxEventLimit); aerr != nil {
		return nil, aerr
	}
	if !q.admin() {
		return q, nil // the enterprise filters are ignored, as the spec says
	}
	if types := listParam(v.Get("event_type")); types != nil {
		q.types = map[string]bool{}
		for _, t := range types {
			q.types[t] = true
		}
	}
	if q.streamType == "admin_logs" {
		for name, dst := range map[string]*time.Time{"created_after": &q.createdAfter, "created_before": &q.createdBefore} {
			if raw := v.Get(name); raw != "" {
				t, err := time.Parse(time.RFC3339, raw)
				if err != nil {
					return nil, wire.BadRequest("Invalid value for %q: not an RFC 3339 date-time", name)
				}
				*dst = t
			}
		}
	}
	return q, nil
}

// getEvents serves GET /events.
func (s *Server) getEvents(w http.ResponseWriter, r *http.Request, p *principal) error {
	q, aerr := parseEventQuery(r)
	if aerr != nil {
		return aerr
	}
	if q.admin() && !p.isAdmin() {
		return wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "The enterprise event stream is for the enterprise admin")
	}
	s.mu.Lock()
	page := s.eventPage(p, q)
	s.mu.Unlock()
	writePage(w, http.StatusOK, page)
	return nil
}

// eventPage reads one page of a stream. Callers hold s.mu.
func (s *state) eventPage(p *principal, q *eventQuery) map[string]any {
	next := s.events.head
	entries := []any{}
	if !q.now {
		next = q.after
		for _, e := range s.events.since(q.after) {
			if int64(len(entries)) >= q.limit {
				break
			}
			next = e.seq
			if q.admin() {
				if s.adminSees(q, e) {
					entries = append(entries, s.renderEvent(e, true))
				}
			} else if s.userSees(p, q.streamType, e) {
				entries = append(entries, s.renderEvent(e, false))
			}
		}
		next = max(next, q.after)
	}
	var pos any = next
	if q.admin() {
		pos = strconv.FormatInt(next, 10)
	}
	return map[string]any{"chunk_size": len(entries), "next_stream_position": pos, "entries": entries}
}

// since returns the events after position after, oldest first.
func (l *eventLog) since(after int64) []*event {
	if len(l.list) == 0 {
		return nil
	}
	i := max(after-l.list[0].seq+1, 0)
	if i >= int64(len(l.list)) {
		return nil
	}
	return l.list[i:]
}

// userSees reports whether an event belongs to p's user stream of a type.
// Callers hold s.mu.
func (s *state) userSees(p *principal, streamType string, e *event) bool {
	if e.typ == "" {
		return false
	}
	if streamType != "all" && !changeEvents[e.typ] {
		return false
	}
	it, live := s.items[e.itemID]
	if streamType == "sync" && (!live || !s.underSyncedFolder(it)) {
		return false
	}
	if e.itemID == "" {
		return p.seesAll() || e.by == p.user
	}
	if live {
		return s.visible(p, it)
	}
	return p.seesAll() || p.user != nil && e.ownerID == p.user.id
}

// underSyncedFolder reports whether an item is in (or is) a folder marked
// synced.
func (s *state) underSyncedFolder(it *item) bool {
	synced := func(f *item) bool { return f.typ == "folder" && f.syncState == "synced" }
	if synced(it) {
		return true
	}
	for f := range s.ancestors(it) { // tree.go
		if synced(f) {
			return true
		}
	}
	return false
}

// adminSees reports whether an event belongs to an enterprise stream page.
func (s *state) adminSees(q *eventQuery, e *event) bool {
	if e.admin == "" || q.types != nil && !q.types[e.admin] {
		return false
	}
	return (q.createdAfter.IsZero() || !e.at.Before(q.createdAfter)) && (q.createdBefore.IsZero() || !e.at.After(q.createdBefore))
}

// unknownUser is created_by of an event nobody signed in made (spec:
// "attributed to a unknown user (user_id = 2)").
var unknownUser = map[string]any{"type": "user", "id": "2", "name": "", "login": ""}

// renderEvent is the Event record.
func (s *state) renderEvent(e *event, admin bool) map[string]any {
	by := unknownUser
	if e.by != nil {
		by = e.by.mini()
	}
	typ, src := e.typ, e.source
	if admin {
		typ, src = e.admin, e.adminSrc
	}
	return map[string]any{
		"type": "event", "event_id": e.id, "event_type": typ, "created_by": by,
		"created_at": fmtTime(e.at), "recorded_at": fmtTime(e.at), "source": src,
		"session_id": nil, "additional_details": nil,
	}
}

// eventsOptions serves OPTIONS /events: a long-poll channel for the
// caller.
func (s *Server) eventsOptions(w http.ResponseWriter, r *http.Request, p *principal) error {
	id := randomHex(16)
	s.mu.Lock()
	now := s.now()
	if len(s.events.channels) >= maxPollChannels {
		for k, c := range s.events.channels {
			if !now.Before(c.expires) {
				delete(s.events.channels, k)
			}
		}
	}
	if len(s.events.channels) >= maxPollChannels {
		for k := range s.events.channels { // drop one: bounded memory
			delete(s.events.channels, k)
			break
		}
	}
	s.events.channels[id] = &pollChannel{p: p, expires: now.Add(pollChannelTTL)}
	s.mu.Unlock()
	timeout := int((s.opts.LongPollTimeout + 10*time.Second + time.Second - 1) / time.Second)
	writeJSON(w, http.StatusOK, map[string]any{"chunk_size": 1, "entries": []any{map[string]any{
		"type":          "realtime_server",
		"url":           s.baseURL + realtimePath + "?channel=" + id + "&stream_type=all",
		"ttl":           strconv.Itoa(int(pollChannelTTL / time.Minute)),
		"max_retries":   pollMaxRetries,
		"retry_timeout": timeout,
	}}})
	return nil
}

// longPoll serves GET /events/realtime: new_change once an event after
// stream_position is one the channel's user sees, reconnect after
// LongPollTimeout or for an unknown or expired channel.
func (s *Server) longPoll(w http.ResponseWriter, r *http.Request, _ *principal) error {
	v := r.URL.Query()
	after, now, aerr := parseStreamPosition(v.Get("stream_position"))
	if aerr != nil {
		return aerr
	}
	streamType := v.Get("stream_type")
	if streamType != "changes" && streamType != "sync" {
		streamType = "all"
	}
	reply := func(msg string) error {
		writeJSON(w, http.StatusOK, map[string]any{"message": msg, "version": 1})
		return nil
	}
	s.mu.Lock()
	ch := s.events.channels[v.Get("channel")]
	if ch == nil || !s.now().Before(ch.expires) {
		s.mu.Unlock()
		return reply("reconnect")
	}
	if now {
		after = s.events.head
	}
	timer := time.NewTimer(s.opts.LongPollTimeout)
	defer timer.Stop()
	for {
		for _, e := range s.events.since(after) {
			if s.userSees(ch.p, streamType, e) {
				s.mu.Unlock()
				return reply("new_change")
			}
			after = e.seq
		}
		wake := s.events.wake
		s.mu.Unlock()
		select {
		case <-wake:
		case <-timer.C:
			return reply("reconnect")
		case <-r.Context().Done():
			return nil
		case <-s.life.closed:
			return reply("reconnect")
		}
		s.mu.Lock()
	}
}
