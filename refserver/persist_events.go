package refserver

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

func (s *state) eventKeys() []string {
	keys := make([]string, 0, len(s.events.list)+1)
	for _, e := range s.events.list {
		keys = append(keys, eventKey(e.seq))
	}
	return append(keys, eventHeadKey)
}

func (s *state) eventRec(key string) (recEvent, bool) {
	if key == eventHeadKey {
		return recEvent{Seq: s.events.head}, true
	}
	seq, err := strconv.ParseInt(key, 10, 64)
	if err != nil || len(s.events.list) == 0 {
		return recEvent{}, false
	}
	i := seq - s.events.list[0].seq // positions are consecutive in the history
	if i < 0 || i >= int64(len(s.events.list)) {
		return recEvent{}, false
	}
	e := s.events.list[i]
	return recEvent{Seq: e.seq, ID: e.id, Type: e.typ, Admin: e.admin, By: uid(e.by), At: utc(e.at),
		ItemID: e.itemID, OwnerID: e.ownerID, Source: e.source, AdminSource: e.adminSrc}, true
}

func (s *state) loadEvent(key string, r recEvent) error {
	if key == eventHeadKey {
		s.events.head = r.Seq
		return nil
	}
	by, err := s.userByRef(r.By)
	if err != nil {
		return err
	}
	s.events.list = append(s.events.list, &event{seq: r.Seq, id: r.ID, typ: r.Type, admin: r.Admin, at: r.At, by: by,
		itemID: r.ItemID, ownerID: r.OwnerID, source: r.Source, adminSrc: r.AdminSource})
	return nil
}

// eventsLoaded checks that the stored events are consecutive and keeps
// the newest the history holds.
func (s *state) eventsLoaded() error {
	for i := 1; i < len(s.events.list); i++ {
		if s.events.list[i].seq != s.events.list[i-1].seq+1 {
			return fmt.Errorf("refserver: stored events are not consecutive at %d", s.events.list[i].seq)
		}
	}
	if over := len(s.events.list) - max(s.events.max, 0); over > 0 {
		for _, e := range s.events.list[:over] {
			s.dirty(kEvents, eventKey(e.seq))
		}
		s.events.list = s.events.list[over:]
	}
	return nil
}
