package refserver

import (
	"sync"
	"time"
)

// restoredIndexDelay is how long a server that restored a data directory
// waits for a first request before it starts its index builders anyway.
const restoredIndexDelay = time.Second

// backgroundIndexers starts the state's background index builders (search
// and metadata) once. A server that restored a data directory starts them
// after its first answer (roleHandler), or restoredIndexDelay after it
// was made when no request comes, not as it opens: at a million files
// they index every restored item, which took half the process's CPU
// before the first answer and competed with it on a small machine.
// Searches and metadata queries index what they need themselves until the
// builders run, so only when the work is done moves, not what is found.
type backgroundIndexers struct {
	once  sync.Once
	mu    sync.Mutex
	timer *time.Timer // the start without a request; nil once stopped
}

// start starts the builders unless they were started.
func (b *backgroundIndexers) start(s *Server) {
	b.once.Do(func() {
		s.st.StartSearchIndexer()   // Close stops it
		s.st.StartMetadataIndexer() // Close stops it
	})
}

// startLater starts the builders after delay unless a request (or stop)
// comes first.
func (b *backgroundIndexers) startLater(s *Server, delay time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.timer = time.AfterFunc(delay, func() { b.start(s) })
}

// stop cancels a start still waiting for its delay, then stops the
// builders and waits for them (Close, and Start when it cannot listen).
func (b *backgroundIndexers) stop(s *Server) {
	b.mu.Lock()
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	b.mu.Unlock()
	s.st.StopSearchIndexer()
	s.st.StopMetadataIndexer()
}
