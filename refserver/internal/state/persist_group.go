package state

// SetCommitted records that every mark numbered up to n is committed and
// wakes the requests waiting for it. Callers hold p.Mu.
func (p *Persister) SetCommitted(n uint64) {
	if n > p.Committed {
		p.Committed = n
		p.CommittedCond.Broadcast()
	}
}
