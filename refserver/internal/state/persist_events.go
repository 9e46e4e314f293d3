package state

import (
	"fmt"
)

// Events are stored one record each, keyed by their position (zero-padded,
// so the bucket's order is the stream's), plus the head position, which
// outlives the events dropped from the history.

const EventHeadKey = "head"

func EventKey(seq int64) string { return fmt.Sprintf("%020d", seq) }
