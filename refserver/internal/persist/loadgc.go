package persist

import (
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// A load allocates mostly what it keeps, and marking the growing state
// is most of what a collection costs: at a million files a collection
// during the load marked 0.9 GB for 6.6 s of one core (GOGC 400; at 100
// it ran twice as often), the length of the rest of the load. So the
// collector is off while a state loads. When the last load ends, one
// collection marks the loaded state in the background, still with the
// collector off (collectAndResumeGC), and then the setting in force
// before comes back. The heap peaks at what the load allocated (1.4 to
// 1.5 times the state: the load's garbage is the records' bytes and its
// batches), and that collection hands the garbage's memory back to the
// system. A memory limit (GOMEMLIMIT) still holds during the load: the
// collector runs when the heap reaches it. A small load (less than
// bigLoad allocated) just restores the setting: its garbage is too little
// for the collection to be worth a goroutine (tests start hundreds).
// A setting the program makes while a load runs (debug.SetGCPercent to
// anything but off) stands: the end of the load does not undo it.

// loadGC counts the loads under way in the process (servers may start
// concurrently): the first turns the collector off, the end of the last
// one starts the collection that brings the setting back.
var loadGC struct {
	mu     sync.Mutex
	loads  int
	paused bool // the collector is off, prev to come back
	prev   int
	since  uint64 // heapAllocs when the collector was turned off
}

// bigLoad is the allocation past which the end of a load collects in
// the background before it restores the collector's setting.
const bigLoad = 64 << 20

// heapAllocs is the bytes the process has allocated on the heap so far.
func heapAllocs() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// pauseGCForLoad turns the collector off for a load; the function
// returned ends the load.
func pauseGCForLoad() (end func()) {
	loadGC.mu.Lock()
	defer loadGC.mu.Unlock()
	if !loadGC.paused {
		loadGC.prev, loadGC.paused, loadGC.since = debug.SetGCPercent(-1), true, heapAllocs()
	}
	loadGC.loads++
	return func() {
		loadGC.mu.Lock()
		defer loadGC.mu.Unlock()
		if loadGC.loads--; loadGC.loads > 0 {
			return
		}
		if heapAllocs()-loadGC.since < bigLoad {
			resumeGC()
			return
		}
		go collectAndResumeGC()
	}
}

// collectAndResumeGC runs the collection that marks the loaded state
// while the collector is still off, returns the load's garbage to the
// system, then restores the collector's setting (unless another load
// began meanwhile). With the collector off the heap has no goal, so the
// requests that allocate during this collection are not made to help it
// (mark assists); restored first, the setting's goal (from the heap of
// the last collection, before the load) would be far behind and every
// allocation would help: at a million files the first answer waited two
// seconds for it.
func collectAndResumeGC() {
	debug.FreeOSMemory()
	loadGC.mu.Lock()
	defer loadGC.mu.Unlock()
	if loadGC.loads == 0 && loadGC.paused {
		resumeGC()
	}
}

// resumeGC brings back the setting in force before the loads, unless the
// program set one of its own meanwhile (the collector is no longer off),
// which it keeps. loadGC.mu is held.
func resumeGC() {
	if now := debug.SetGCPercent(loadGC.prev); now != -1 {
		debug.SetGCPercent(now)
	}
	loadGC.paused = false
}
