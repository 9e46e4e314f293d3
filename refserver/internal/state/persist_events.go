package state

import (
	"fmt"
)

// Events are stored one record each, keyed by their position (zero-padded,
// so the bucket's order is the stream's), plus the head position, which
// outlives the events dropped from the history. The keys live here, not
// with the codec in internal/persist, because the state marks an event's
// record and the head's by key as it records the event.

// EventHeadKey is the key of the record of the head position in the
// events bucket.
const EventHeadKey = "head"

// EventKey is the key of the event at position seq: zero-padded, so the
// bucket's order is the stream's.
func EventKey(seq int64) string { return fmt.Sprintf("%020d", seq) }
