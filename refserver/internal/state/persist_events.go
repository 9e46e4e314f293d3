package state

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// Events are stored one record each, keyed by their position (zero-padded,
// so the bucket's order is the stream's), plus the head position, which
// outlives the events dropped from the history.

const eventHeadKey = "head"

func eventKey(seq int64) string { return fmt.Sprintf("%020d", seq) }

// recEvent is one event, or (key "head") the head position alone.
type recEvent struct {
	Seq                 int64
	ID, Type, Admin, By string `json:",omitempty"`
	At                  time.Time
	ItemID, OwnerID     string          `json:",omitempty"`
	Source, AdminSource json.RawMessage `json:",omitempty"`
}

func (s *State) EventKeys() []string {
	keys := make([]string, 0, len(s.Events.list)+1)
	for _, e := range s.Events.list {
		keys = append(keys, eventKey(e.Seq))
	}
	return append(keys, eventHeadKey)
}

func (s *State) EventRec(key string) (recEvent, bool) {
	if key == eventHeadKey {
		return recEvent{Seq: s.Events.Head}, true
	}
	seq, err := strconv.ParseInt(key, 10, 64)
	if err != nil || len(s.Events.list) == 0 {
		return recEvent{}, false
	}
	i := seq - s.Events.list[0].Seq // positions are consecutive in the history
	if i < 0 || i >= int64(len(s.Events.list)) {
		return recEvent{}, false
	}
	e := s.Events.list[i]
	return recEvent{Seq: e.Seq, ID: e.id, Type: e.typ, Admin: e.admin, By: Uid(e.by), At: Utc(e.at),
		ItemID: e.itemID, OwnerID: e.ownerID, Source: e.source, AdminSource: e.adminSrc}, true
}

func (s *State) LoadEvent(key string, r recEvent) error {
	if key == eventHeadKey {
		s.Events.Head = r.Seq
		return nil
	}
	by, err := s.UserByRef(r.By)
	if err != nil {
		return err
	}
	s.Events.list = append(s.Events.list, &event{Seq: r.Seq, id: r.ID, typ: r.Type, admin: r.Admin, at: r.At, by: by,
		itemID: r.ItemID, ownerID: r.OwnerID, source: r.Source, adminSrc: r.AdminSource})
	return nil
}

// EventsLoaded checks that the stored events are consecutive and keeps
// the newest the history holds.
func (s *State) EventsLoaded() error {
	for i := 1; i < len(s.Events.list); i++ {
		if s.Events.list[i].Seq != s.Events.list[i-1].Seq+1 {
			return fmt.Errorf("refserver: stored events are not consecutive at %d", s.Events.list[i].Seq)
		}
	}
	if over := len(s.Events.list) - max(s.Events.max, 0); over > 0 {
		for _, e := range s.Events.list[:over] {
			s.Dirty(KEvents, eventKey(e.Seq))
		}
		s.Events.list = s.Events.list[over:]
	}
	return nil
}
