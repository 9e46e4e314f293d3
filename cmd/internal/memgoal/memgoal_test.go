package memgoal

import (
	"errors"
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestLimitFor(t *testing.T) {
	for _, c := range []struct {
		live, grew, own uint64
		headroom        int
		floor           int64
		want            int64
	}{
		{live: 1000 << 20, own: 20 << 20, headroom: 50, floor: 256 << 20, want: 1520 << 20},
		{live: 1000 << 20, grew: 300 << 20, own: 20 << 20, headroom: 50, floor: 256 << 20, want: 1820 << 20},
		{live: 100 << 20, own: 10 << 20, headroom: 50, floor: 256 << 20, want: 256 << 20},
		{live: 400 << 20, own: 0, headroom: 25, floor: 0, want: 500 << 20},
		{live: math.MaxUint64, own: 0, headroom: 50, floor: 0, want: math.MaxInt64},
	} {
		if got := limitFor(c.live, c.grew, c.own, c.headroom, c.floor); got != c.want {
			t.Errorf("limitFor(%d, %d, %d, %d, %d) = %d, want %d", c.live, c.grew, c.own, c.headroom, c.floor, got, c.want)
		}
	}
}

func TestStartRejectsABadHeadroom(t *testing.T) {
	for _, h := range []int{0, -5} {
		if _, err := Start(h, DefaultFloor); !errors.Is(err, ErrHeadroom) {
			t.Errorf("Start(%d) = %v, want ErrHeadroom", h, err)
		}
	}
}

// TestGoalFollowsTheLiveHeap: after a collection the limit is the live heap
// plus the headroom (and the runtime's own memory), so it grows with what
// the process holds; Stop puts back the limit there was.
func TestGoalFollowsTheLiveHeap(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	adjusted := make(chan int64, 1)
	g, err := start(50, 1, adjusted)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Start(50, 1); !errors.Is(err, ErrRunning) {
		t.Errorf("a second Start = %v, want ErrRunning", err)
	}
	// next is the limit set after a collection that ran after the call:
	// the sentinel the first collection's finalizer arms is found by the
	// second.
	next := func() int64 {
		t.Helper()
		var l int64
		for range 2 {
			select {
			case <-adjusted:
			default:
			}
			runtime.GC()
			select {
			case l = <-adjusted:
			case <-time.After(10 * time.Second): // a bound on a finalizer that never ran, not a wait
				t.Fatal("no limit set after a collection")
			}
		}
		return l
	}
	small := next()
	held := make([][]byte, 64)
	for i := range held {
		held[i] = make([]byte, 1<<20) // 64 MiB held live
	}
	next() // the collection that found the 64 MiB: its growth is in the limit
	large := next()
	if large-small < 64<<20*3/2*9/10 {
		t.Errorf("holding 64 MiB more moved the limit %d -> %d, want about 96 MiB more", small, large)
	}
	if got := debug.SetMemoryLimit(-1); got != large {
		t.Errorf("the runtime's limit is %d, want the goal's %d", got, large)
	}
	runtime.KeepAlive(held)

	// The collector off (a state's load): no limit, which would make it
	// run; back on, the limit comes back without waiting for a collection.
	prevGC := debug.SetGCPercent(-1)
	if l := next(); l != 0 {
		t.Errorf("with the collector off the goal set a limit of %d", l)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("with the collector off the runtime's limit is %d, want none", got)
	}
	debug.SetGCPercent(prevGC)
	bound := time.After(10 * time.Second) // a bound, not a wait: the poll comes after offPoll
	for back := false; !back; {
		select {
		case l := <-adjusted:
			back = l != 0 // a poll from before the collector came back tells 0
		case <-bound:
			t.Fatal("the collector back on, the goal set no limit")
		}
	}
	g.Stop()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("after Stop the limit is %d, want %d as before", got, before)
	}
	g2, err := Start(50, 1)
	if err != nil {
		t.Fatalf("Start after Stop: %v", err)
	}
	g2.Stop()
}
