package refserver

// Group commit: a persisted server answers a request only once the state
// it reports is committed, but concurrent requests need not commit one
// bbolt transaction (two fsyncs) each. A request waits for the marks made
// up to the end of its handler; one waiter at a time commits everything
// marked so far, for itself and every request waiting, while the others
// sleep; requests that end during that commit are covered by the next
// one. Under load a commit carries the changes of many requests, and a
// request that changed nothing waits only when changes it may have seen
// are still pending.

// awaitState returns once every record marked (and every blob delete
// queued) before the call is committed, committing them itself when no
// other request is doing so. It returns the error of a commit it made; a
// request whose changes a failed commit carried goes on to commit them
// itself (a failed commit puts its marks back), so every waiter gets
// either its changes committed or an error. Callers hold neither s.mu nor
// s.oauth.mu.
func (s *Server) awaitState() error {
	p := s.st.Persist
	if p == nil {
		return nil
	}
	p.Mu.Lock()
	defer p.Mu.Unlock()
	want := p.Marked
	for p.Committed < want {
		if p.Flushing {
			p.CommittedCond.Wait()
			continue
		}
		p.Flushing = true
		p.Mu.Unlock()
		err := s.flushState()
		p.Mu.Lock()
		p.Flushing = false
		p.CommittedCond.Broadcast() // a waiter left behind takes over
		if err != nil {
			return err
		}
	}
	return nil
}
