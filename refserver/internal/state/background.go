package state

import "sync"

// background is the life of one of the State's background goroutines (the
// search indexer, the metadata index builder): started once the state is
// loaded, run only while it has work, stopped before the state closes.
// A goroutine runs while work is queued and ends when it finds none, so
// an idle server has none. Its lock comes after the state's (kick and
// idle run within a transaction) and holds no other.
type background struct {
	mu      sync.Mutex
	on      bool // enable was called and stop was not
	running bool // the goroutine runs
	closed  bool // stop was called
	wg      sync.WaitGroup
}

// enable lets the goroutine run when work comes (kick), unless it was
// stopped, and reports whether it may.
func (b *background) enable() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.on = !b.closed
	return b.on
}

// stop keeps the goroutine from starting again; the caller then ends a
// running one (its own way) and waits for it (wait). Safe to call more
// than once.
func (b *background) stop() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed, b.on = true, false
}

// wait waits for a running goroutine to end.
func (b *background) wait() { b.wg.Wait() }

// kick starts run on a goroutine unless one runs, the worker is not
// enabled, or it is stopped. run calls idle before it returns, in the
// transaction that found no work left, so that work queued after it
// kicks a new one.
func (b *background) kick(run func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.on || b.running || b.closed {
		return
	}
	b.running = true
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		run()
	}()
}

// idle marks the goroutine as ending: the next kick starts a new one.
func (b *background) idle() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.running = false
}

// isOn reports whether the goroutine runs, or will when work comes.
func (b *background) isOn() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.on
}

// stopped reports whether stop was called.
func (b *background) stopped() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.closed
}
