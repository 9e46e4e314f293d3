package persist

import (
	"runtime/debug"
	"sync"
)

// loadGCPercent is the collector's GOGC while a state is loaded. A load
// allocates mostly what it keeps: with GOGC 100 the collector runs each
// time the heap doubles, and marks the growing state again each time
// (BenchmarkRestart, 200k files: 40% of the CPU of a restart). At 400 it
// runs about half as often. The heap then peaks at the state plus the
// load's garbage since the last collection, about what GOGC 100 reaches
// anyway (twice the live heap); the setting in force before comes back
// when the load ends.
const loadGCPercent = 400

// loadGC counts the loads under way in the process (servers may start
// concurrently): the first raises GOGC, the last one restores it.
var loadGC struct {
	mu    sync.Mutex
	loads int
	prev  int
}

// raiseLoadGC raises GOGC for a load, unless it is higher already (or
// off); the function returned ends the load.
func raiseLoadGC() (end func()) {
	loadGC.mu.Lock()
	defer loadGC.mu.Unlock()
	if loadGC.loads == 0 {
		loadGC.prev = debug.SetGCPercent(loadGCPercent)
		if loadGC.prev < 0 || loadGC.prev >= loadGCPercent {
			debug.SetGCPercent(loadGC.prev)
		}
	}
	loadGC.loads++
	return func() {
		loadGC.mu.Lock()
		defer loadGC.mu.Unlock()
		if loadGC.loads--; loadGC.loads == 0 && loadGC.prev >= 0 && loadGC.prev < loadGCPercent {
			debug.SetGCPercent(loadGC.prev)
		}
	}
}
