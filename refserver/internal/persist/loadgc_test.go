package persist

import (
	"runtime/debug"
	"testing"
)

// A load turns the collector off and the end of the last of concurrent
// loads brings the setting back, after the background collection when
// the loads allocated much.
func TestPauseGCForLoadRestoresTheSetting(t *testing.T) {
	prev := debug.SetGCPercent(123)
	defer debug.SetGCPercent(prev)
	waitResumed := func() {
		t.Helper()
		for range 1000 {
			loadGC.mu.Lock()
			paused := loadGC.paused
			loadGC.mu.Unlock()
			if !paused {
				return
			}
			collectAndResumeGC() // what the goroutine does; at most once more
		}
		t.Fatal("the collector stays off")
	}

	endA := pauseGCForLoad()
	endB := pauseGCForLoad()
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Fatalf("GOGC during a load = %d, want off", got)
	}
	endA()
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Fatalf("GOGC while a second load runs = %d, want off", got)
	}
	endB() // small: restored at once
	if got := debug.SetGCPercent(123); got != 123 {
		t.Fatalf("GOGC after a small load = %d, want 123", got)
	}

	end := pauseGCForLoad()
	keep := make([][]byte, 0, 80)
	for range 80 {
		keep = append(keep, make([]byte, 1<<20)) // past bigLoad
	}
	end()
	waitResumed()
	if got := debug.SetGCPercent(123); got != 123 {
		t.Fatalf("GOGC after a big load = %d, want 123", got)
	}
	_ = keep
}

// A setting the program makes while a load runs is not undone by the
// end of the load, small or big.
func TestPauseGCForLoadKeepsTheProgramsSetting(t *testing.T) {
	prev := debug.SetGCPercent(123)
	defer debug.SetGCPercent(prev)

	end := pauseGCForLoad()
	debug.SetGCPercent(150) // the program's own, during the load
	end()                   // small: resumed at once
	if got := debug.SetGCPercent(123); got != 150 {
		t.Fatalf("GOGC after a small load = %d, want the program's 150", got)
	}

	end = pauseGCForLoad()
	debug.SetGCPercent(175)
	loadGC.mu.Lock()
	loadGC.since -= bigLoad // as if the load had allocated much
	loadGC.mu.Unlock()
	end()
	collectAndResumeGC() // what the goroutine does; the second finds nothing to do
	if got := debug.SetGCPercent(123); got != 175 {
		t.Fatalf("GOGC after a big load = %d, want the program's 175", got)
	}
}
