package cms

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestEventStreamPauseBounds: the wait after n quick answers in a row is a
// random half to all of RetryDelay·2^(n-1), capped at a minute.
func TestEventStreamPauseBounds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		delay time.Duration
		quick int
		max   time.Duration
	}{
		{0, 1, time.Second},
		{0, 2, 2 * time.Second},
		{0, 6, 32 * time.Second},
		{0, 7, time.Minute},
		{0, 1000, time.Minute},
		{10 * time.Second, 3, 40 * time.Second},
		{2 * time.Minute, 1, time.Minute},
	} {
		st := &streamState{o: EventStreamOptions{RetryDelay: tc.delay}, quick: tc.quick}
		for range 200 {
			d := st.pause()
			assert.GreaterOrEqual(t, d, tc.max/2, "%+v", tc)
			assert.LessOrEqual(t, d, tc.max, "%+v", tc)
		}
	}
}
