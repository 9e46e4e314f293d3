package refserver

import "sync"

// backgroundIndexers starts the state's background index builders (search
// and metadata) once. A server that restored a data directory starts them
// after its first answer (roleHandler), not as it opens: at a million
// files they index every restored item, which took half the process's CPU
// before the first answer and competed with it on a small machine.
// Searches and metadata queries index what they need themselves until the
// builders run, so only when the work is done moves, not what is found.
type backgroundIndexers struct {
	once sync.Once
}

// start starts the builders unless they were started.
func (b *backgroundIndexers) start(s *Server) {
	b.once.Do(func() {
		s.st.StartSearchIndexer()   // Close stops it
		s.st.StartMetadataIndexer() // Close stops it
	})
}
