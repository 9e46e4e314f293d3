// Package memgoal holds a process's memory near a multiple of its live
// heap. Go's collector, by default (GOGC=100), lets the heap grow to twice
// what the last collection found live before it collects again, and keeps
// what it freed mapped for a while: a server that holds a large state in
// memory runs at well over twice that state. The runtime's memory limit
// (GOMEMLIMIT) bounds the whole process, but a fixed one is either too
// high to matter or, once the state grows to it, makes the collector run
// all the time. A Goal moves the limit instead: after every collection it
// sets it to the live heap the collection found, times 1 + the headroom,
// plus the runtime's own memory (stacks, metadata), so the limit grows and
// shrinks with the state and the collector never chases a limit the state
// has outgrown. Under the floor the limit is the floor, so that a small
// process collects as GOGC says.
//
// While the program has the collector off (GOGC=off: refserver does so
// while it loads a state, whose collections would mark the growing state
// again and again), the goal sets no limit, which would make the collector
// run anyway; it looks again every offPoll until the collector is back,
// and then sets the limit from the last collection (refserver's, of the
// loaded state).
//
// It is a process-wide setting: the commands that run a server (cmd/refserver,
// `cms serve`) start one; the refserver package itself never does.
package memgoal

import (
	"errors"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// DefaultHeadroom is the headroom of the commands, in percent of the live
// heap: the process settles at about 1.5 times its live heap, where GOGC's
// default lets it reach 2 times and more.
const DefaultHeadroom = 50

// DefaultFloor is the least limit a Goal sets: a process whose live heap is
// small is left to GOGC.
const DefaultFloor = 256 << 20

// Goal is a running memory goal; Stop ends it.
type Goal struct {
	headroom int
	floor    int64
	prev     int64 // the limit before Start, put back by Stop

	mu      sync.Mutex
	stopped bool
	polling bool // a look whether the collector is back is scheduled
	// lastLive is the live heap the last collection found.
	lastLive uint64
	// adjusted, if set (tests), is told each limit set.
	adjusted chan<- int64

	samples [len(metricNames)]metrics.Sample
}

// The metrics the goal reads after a collection, by their place in
// Goal.samples.
const (
	mLive = iota
	mTotal
	mObjects
	mUnused
	mFree
	mReleased
	mGOGC
)

var metricNames = [...]string{
	mLive:     "/gc/heap/live:bytes",
	mTotal:    "/memory/classes/total:bytes",
	mObjects:  "/memory/classes/heap/objects:bytes",
	mUnused:   "/memory/classes/heap/unused:bytes",
	mFree:     "/memory/classes/heap/free:bytes",
	mReleased: "/memory/classes/heap/released:bytes",
	mGOGC:     "/gc/gogc:percent",
}

// offPoll is how often a goal looks whether the collector is back on.
const offPoll = 100 * time.Millisecond

// ErrHeadroom is the error of a headroom that is not positive.
var ErrHeadroom = errors.New("memgoal: the headroom must be a positive percentage")

// ErrRunning is the error of a Start while a goal runs: the limit is the
// process's, so one goal at a time sets it.
var ErrRunning = errors.New("memgoal: a goal is already running")

// running is the goal that runs, if any.
var (
	runningMu sync.Mutex
	running   *Goal
)

// FromEnvironment reports whether the environment sets the collector
// (GOGC or GOMEMLIMIT): the user's choice, which a command keeps.
func FromEnvironment() bool {
	return os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != ""
}

// Start sets a memory goal of headroom percent above the live heap, never
// under floor bytes, from the next collection on.
func Start(headroom int, floor int64) (*Goal, error) {
	return start(headroom, floor, nil)
}

func start(headroom int, floor int64, adjusted chan<- int64) (*Goal, error) {
	if headroom <= 0 {
		return nil, ErrHeadroom
	}
	runningMu.Lock()
	defer runningMu.Unlock()
	if running != nil {
		return nil, ErrRunning
	}
	g := &Goal{headroom: headroom, floor: max(floor, 0), adjusted: adjusted,
		prev: debug.SetMemoryLimit(-1)}
	for i, name := range metricNames {
		g.samples[i].Name = name
	}
	g.arm()
	running = g
	return g, nil
}

// Stop ends the goal and puts back the limit there was before Start.
func (g *Goal) Stop() {
	runningMu.Lock()
	defer runningMu.Unlock()
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.stopped {
		g.stopped = true
		debug.SetMemoryLimit(g.prev)
		running = nil
	}
}

// sentinel is what the goal leaves for each collection to find
// unreachable: its finalizer runs after the collection. 16 bytes, so that
// the allocator does not pack it with other small objects (a finalizer
// of a packed object may never run).
type sentinel struct{ _ [16]byte }

// arm leaves a new sentinel behind.
func (g *Goal) arm() {
	runtime.SetFinalizer(&sentinel{}, func(*sentinel) {
		if g.adjust() {
			g.arm()
		}
	})
}

// adjust sets the limit from the collection that just ended; false once
// the goal is stopped. With the collector off it sets none, and looks
// again every offPoll.
func (g *Goal) adjust() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stopped {
		return false
	}
	metrics.Read(g.samples[:])
	v := func(i int) uint64 {
		if g.samples[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return g.samples[i].Value.Uint64()
	}
	if int64(v(mGOGC)) < 0 { // GOGC=off: the metric holds -1
		debug.SetMemoryLimit(math.MaxInt64)
		if !g.polling {
			g.polling = true
			time.AfterFunc(offPoll, g.poll)
		}
		g.tell(0)
		return true
	}
	live, total := v(mLive), v(mTotal)
	heap := v(mObjects) + v(mUnused) + v(mFree) + v(mReleased)
	grew := live - min(g.lastLive, live)
	g.lastLive = live
	limit := limitFor(live, grew, total-min(heap, total), g.headroom, g.floor)
	debug.SetMemoryLimit(limit)
	g.tell(limit)
	return true
}

// tell sends the limit set (0: none, the collector is off) to the tests'
// channel, if any.
func (g *Goal) tell(limit int64) {
	if g.adjusted != nil {
		select {
		case g.adjusted <- limit:
		default:
		}
	}
}

// poll looks whether the collector is back on: if so it sets the limit
// (adjust), else it looks again later.
func (g *Goal) poll() {
	g.mu.Lock()
	g.polling = false
	g.mu.Unlock()
	g.adjust()
}

// limitFor is the limit for a live heap that grew by grew since the
// collection before, and the runtime's memory outside the heap: the live
// heap times 1 + headroom percent, plus what it grew by, plus that memory,
// and never under floor. The growth is there for a state that grows fast
// (the indexes a restarted server builds, a bulk import): left out, every
// few hundred megabytes of it would cost a collection that marks the
// whole state. A steady state has none.
func limitFor(live, grew, runtimeOwn uint64, headroom int, floor int64) int64 {
	goal := float64(live)*(1+float64(headroom)/100) + float64(grew) + float64(runtimeOwn)
	if goal >= math.MaxInt64 {
		return math.MaxInt64
	}
	return max(int64(goal), floor)
}
