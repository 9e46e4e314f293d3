package persist

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// recEvent is one event, or (key "head") the head position alone.
type recEvent struct {
	Seq                 int64
	ID, Type, Admin, By string `json:",omitempty"`
	At                  time.Time
	ItemID, OwnerID     string          `json:",omitempty"`
	Source, AdminSource json.RawMessage `json:",omitempty"`
	// Under: the folders above the item then (state.Event.Under); empty
	// and absent differ.
	Under []string `json:",omitzero"`
}

// appendRecord appends r as encoding/json writes it (TestEventRecordEncoding),
// without its reflection and without re-reading the sources, which are
// JSON already: the events are the records a commit writes most.
func (r recEvent) appendRecord(b []byte) []byte {
	// One allocation: the sources are most of an event's record (an
	// item's full JSON, about a kilobyte), and growing to them copied
	// the record several times.
	n := 160 + len(r.ID) + len(r.Type) + len(r.Admin) + len(r.By) + len(r.ItemID) + len(r.OwnerID) + len(r.Source) + len(r.AdminSource)
	for _, id := range r.Under {
		n += len(id) + 3
	}
	b = slices.Grow(b, n)
	b = append(b, `{"Seq":`...)
	b = strconv.AppendInt(b, r.Seq, 10)
	field := func(name, v string) {
		if v != "" {
			b = append(b, `,"`...)
			b = append(b, name...)
			b = append(b, `":`...)
			b = wire.AppendString(b, v)
		}
	}
	field("ID", r.ID)
	field("Type", r.Type)
	field("Admin", r.Admin)
	field("By", r.By)
	b = append(b, `,"At":"`...)
	b = r.At.AppendFormat(b, time.RFC3339Nano)
	b = append(b, '"')
	field("ItemID", r.ItemID)
	field("OwnerID", r.OwnerID)
	if len(r.Source) > 0 {
		b = append(append(b, `,"Source":`...), r.Source...)
	}
	if len(r.AdminSource) > 0 {
		b = append(append(b, `,"AdminSource":`...), r.AdminSource...)
	}
	if r.Under != nil {
		b = append(b, `,"Under":[`...)
		for i, id := range r.Under {
			if i > 0 {
				b = append(b, ',')
			}
			b = wire.AppendString(b, id)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// EventKeys lists the keys of the events in the history, oldest first,
// then the head's (state.EventHeadKey).
func EventKeys(s *state.ReadTx) []string {
	keys := make([]string, 0, len(s.Events.List)+1)
	for _, e := range s.Events.List {
		keys = append(keys, state.EventKey(e.Seq))
	}
	return append(keys, state.EventHeadKey)
}

// EventRec is the record of the event at position key, or of the head
// position; false for an event no longer in the history.
func EventRec(s *state.ReadTx, key string) (recEvent, bool) {
	if key == state.EventHeadKey {
		return recEvent{Seq: s.Events.Head}, true
	}
	seq, err := strconv.ParseInt(key, 10, 64)
	if err != nil || len(s.Events.List) == 0 {
		return recEvent{}, false
	}
	i := seq - s.Events.List[0].Seq // positions are consecutive in the history
	if i < 0 || i >= int64(len(s.Events.List)) {
		return recEvent{}, false
	}
	e := s.Events.List[i]
	return recEvent{Seq: e.Seq, ID: e.ID, Type: e.Typ, Admin: e.Admin, By: userID(e.By), At: utcTime(e.At),
		ItemID: e.ItemRef, OwnerID: e.OwnerID, Source: e.Source, AdminSource: e.AdminSrc, Under: e.Under}, true
}

// LoadEvent restores an event into the history (in key order, which is
// the stream's), or the head position.
func LoadEvent(s *state.Tx, key string, r recEvent) error {
	if key == state.EventHeadKey {
		s.Events.Head = r.Seq
		return nil
	}
	by, err := userByRef(&s.Users, r.By)
	if err != nil {
		return err
	}
	s.Events.List = append(s.Events.List, &state.Event{Seq: r.Seq, ID: r.ID, Typ: r.Type, Admin: r.Admin, At: r.At, By: by,
		ItemRef: r.ItemID, OwnerID: r.OwnerID, Source: r.Source, AdminSrc: r.AdminSource, Under: r.Under})
	return nil
}

// EventsLoaded checks that the stored events are consecutive and keeps
// the newest the history holds. The events it drops are deleted from the
// database once the load is over (LoadScratch.Obsolete, marked by DB.load).
func EventsLoaded(s *state.Tx) error {
	for i := 1; i < len(s.Events.List); i++ {
		if s.Events.List[i].Seq != s.Events.List[i-1].Seq+1 {
			return fmt.Errorf("refserver: stored events are not consecutive at %d", s.Events.List[i].Seq)
		}
	}
	if over := len(s.Events.List) - max(s.Events.Max, 0); over > 0 {
		for _, e := range s.Events.List[:over] {
			s.Persist.Load.Obsolete = append(s.Persist.Load.Obsolete, state.DirtyKey{Kind: state.KEvents, Key: state.EventKey(e.Seq)})
		}
		s.Events.List = s.Events.List[over:]
	}
	return nil
}
