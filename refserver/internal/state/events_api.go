package state

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// PollChannel is a long-poll channel handed out by OPTIONS /events.
type PollChannel struct {
	P       *Principal
	Expires time.Time
}

// EventQuery is a parsed GET /events.
type EventQuery struct {
	StreamType    string
	Now           bool  // stream_position=now
	After         int64 // events after this position
	Limit         int64
	Types         map[string]bool // admin: event_type
	CreatedAfter  time.Time
	CreatedBefore time.Time
}

// Admin reports whether the query reads an enterprise stream (admin_logs
// or admin_logs_streaming).
func (q *EventQuery) Admin() bool {
	return q.StreamType == "admin_logs" || q.StreamType == "admin_logs_streaming"
}

// EventPage reads one page of a stream. Its entries are one JSON array,
// each event written as wire.Marshal writes its record (appendEvent),
// appended to buf (a buffer to reuse: its bytes until the page is
// written); the error is a source that is not JSON.
func (s *ReadTx) EventPage(p *Principal, q *EventQuery, buf []byte) (map[string]any, error) {
	next := s.Events.Head
	entries := append(buf[:0], '[')
	count := 0
	admin := q.Admin()
	shown := p // whose user stream, nil for the enterprise stream
	if admin {
		shown = nil
	}
	if !q.Now {
		next = q.After
		for _, e := range s.Events.Since(q.After) {
			if int64(count) >= q.Limit {
				break
			}
			next = e.Seq
			if admin && !s.adminSees(q, e) || !admin && !s.UserSees(p, q.StreamType, e) {
				continue
			}
			if count > 0 {
				entries = append(entries, ',')
			}
			var err error
			if entries, err = s.appendEvent(entries, e, shown); err != nil {
				return nil, err
			}
			count++
		}
		next = max(next, q.After)
	}
	var pos any = next
	if admin {
		pos = strconv.FormatInt(next, 10)
	}
	return map[string]any{"chunk_size": count, "next_stream_position": pos, "entries": json.RawMessage(append(entries, ']'))}, nil
}

// Since returns the events after position after, oldest first.
func (l *eventLog) Since(after int64) []*Event {
	if len(l.List) == 0 {
		return nil
	}
	i := max(after-l.List[0].Seq+1, 0)
	if i >= int64(len(l.List)) {
		return nil
	}
	return l.List[i:]
}

// UserSees reports whether an event belongs to p's user stream of a type.
func (s *ReadTx) UserSees(p *Principal, streamType string, e *Event) bool {
	if e.Typ == "" {
		return false
	}
	if streamType != "all" && !changeEvents[e.Typ] {
		return false
	}
	it, live := s.Items.ByRef(e.ItemRef)
	if streamType == "sync" && (!live || !s.underSyncedFolder(it)) {
		return false
	}
	if e.ItemRef == "" {
		return p.SeesAll() || e.By == p.User
	}
	owner := p.SeesAll() || p.User != nil && e.OwnerID == p.User.ID
	if ownerOnlyEvents[e.Typ] {
		return owner
	}
	if live {
		return s.Can(p, it, eventReadAction(e.Typ)) && s.grantedAt(p, it, e)
	}
	return owner
}

// underSyncedFolder reports whether an item is in (or is) a folder marked
// synced.
func (s *ReadTx) underSyncedFolder(it *Item) bool {
	synced := func(f *Item) bool { return f.Typ == "folder" && f.SyncState() == "synced" }
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
func (s *ReadTx) adminSees(q *EventQuery, e *Event) bool {
	if e.Admin == "" || q.Types != nil && !q.Types[e.Admin] {
		return false
	}
	return (q.CreatedAfter.IsZero() || !e.At.Before(q.CreatedAfter)) && (q.CreatedBefore.IsZero() || !e.At.After(q.CreatedBefore))
}

// UnknownUser is created_by of an event nobody signed in made (spec:
// "attributed to a unknown user (user_id = 2)").
var UnknownUser = unknownUser.Mini()

// unknownUser is the user UnknownUser is the mini record of.
var unknownUser = &User{ID: "2"}

// appendEvent appends the Event record to b: on the user stream of p, or
// on the enterprise stream (p nil). A user is shown an item source's path
// as they may see it (paths.go). The bytes are those wire.Marshal writes
// for the record's map (keys in order, created_by a user's mini record),
// written directly: an events page builds no map per event.
func (s *ReadTx) appendEvent(b []byte, e *Event, p *Principal) ([]byte, error) {
	typ, src := e.Admin, e.AdminSrc
	if p != nil {
		typ, src = e.Typ, s.trimmedSource(p, e)
	}
	b = append(b, `{"additional_details":null,"created_at":`...)
	b = appendFmtTime(b, e.At)
	b = append(b, `,"created_by":`...)
	by := e.By
	if by == nil {
		by = unknownUser
	}
	b = appendUserMini(b, by)
	b = append(b, `,"event_id":`...)
	b = wire.AppendString(b, e.ID)
	b = append(b, `,"event_type":`...)
	b = wire.AppendString(b, typ)
	b = append(b, `,"recorded_at":`...)
	b = appendFmtTime(b, e.At)
	b = append(b, `,"session_id":null,"source":`...)
	b, err := wire.AppendJSON(b, src)
	if err != nil {
		return nil, err
	}
	return append(b, `,"type":"event"}`...), nil
}

// appendUserMini appends a user's mini record (User.Mini) as wire.Marshal
// writes it.
func appendUserMini(b []byte, u *User) []byte {
	b = append(b, `{"id":`...)
	b = wire.AppendString(b, u.ID)
	b = append(b, `,"login":`...)
	b = wire.AppendString(b, u.Login)
	b = append(b, `,"name":`...)
	b = wire.AppendString(b, u.Name)
	return append(b, `,"type":"user"}`...)
}

// appendFmtTime appends FmtTime(t) as wire.Marshal writes it.
func appendFmtTime(b []byte, t time.Time) []byte {
	if t.IsZero() {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, time.RFC3339)
	return append(b, '"')
}

// OpenPollChannel opens the long-poll channel id for p (OPTIONS /events),
// open for ttl. At most max are kept: the expired ones go first, then any
// one (bounded memory).
func (s *Tx) OpenPollChannel(p *Principal, id string, ttl time.Duration, max int) {
	now := s.Now()
	if len(s.Events.Channels) >= max {
		for k, c := range s.Events.Channels {
			if !now.Before(c.Expires) {
				delete(s.Events.Channels, k)
			}
		}
	}
	if len(s.Events.Channels) >= max {
		for k := range s.Events.Channels {
			delete(s.Events.Channels, k)
			break
		}
	}
	s.Events.Channels[id] = &PollChannel{P: p, Expires: now.Add(ttl)}
}

// PollEvents is one look of a long poll (GET /events/realtime) on channel:
// live is false for an unknown or expired channel; changed reports an
// event after position after (the head when fromHead) that the channel's
// user sees in streamType. Otherwise next is the position to wait after,
// and wake is closed by the next event.
func (s *ReadTx) PollEvents(channel, streamType string, after int64, fromHead bool) (live, changed bool, next int64, wake <-chan struct{}) {
	ch := s.Events.Channels[channel]
	if ch == nil || !s.Now().Before(ch.Expires) {
		return false, false, after, nil
	}
	if fromHead {
		after = s.Events.Head
	}
	for _, e := range s.Events.Since(after) {
		if s.UserSees(ch.P, streamType, e) {
			return true, true, after, nil
		}
		after = e.Seq
	}
	return true, false, after, s.Events.Wake
}
