package state

import (
	"context"

	"github.com/contentapi/cms/refserver/internal/blob"
)

// Delivery is a webhook payload to deliver, taken in the transaction
// that fired it (it leaves after the lock is released): the webhook's id,
// address and creator's id (the fair queue's owner), its trigger, who made the change (a mini user record,
// UnknownUser when unknown) and the source record.
type Delivery struct {
	HookID, Address, Owner, Trigger string
	By                              any
	Source                          any
}

// newDelivery takes the delivery of trigger on hook by (nil: unknown).
func newDelivery(hook *Webhook, trigger string, by *User, source any) Delivery {
	var creator any = UnknownUser
	if by != nil {
		creator = by.Mini()
	}
	return Delivery{HookID: hook.ID, Address: hook.Address, Owner: hook.CreatorID(), Trigger: trigger, By: creator, Source: source}
}

// outbox is the work a transaction leaves for after its commit: webhook
// deliveries, and a wake-up of the long polls of /events when it recorded
// an event. Nothing leaves before the commit is durable (State.release).
type outbox struct {
	deliveries []Delivery
	wake       bool
	blobs      []string // content no record names any more
	discards   []endedContent
}

// endedContent is the assembly of an upload session that ended without a
// commit, to discard.
type endedContent struct {
	session string
	asm     blob.Assembly
}

func (o *outbox) deliver(d Delivery) { o.deliveries = append(o.deliveries, d) }

// deleteBlobs deletes the blobs from the store once the transaction that
// stopped naming them is committed (a crash before leaves them to the
// next start's sweep).
func (o *outbox) deleteBlobs(ids []string) { o.blobs = append(o.blobs, ids...) }

// queueBlobs hands the blobs to delete to the commit that takes this
// transaction's marks (Persister.QueueBlobs, at the transaction's end):
// it deletes them once the state without them is durable, small blobs in
// the same database transaction. A failed commit puts them back.
func (o *outbox) queueBlobs(p *Persister) {
	if len(o.blobs) > 0 {
		p.QueueBlobs(o.blobs)
		o.blobs = nil
	}
}

// dropContent discards the content of ss, a session that ended without a
// commit (aborted, or expired), once the transaction that dropped it is
// committed: its assembly, and the blob a commit that did not complete
// finished. Before that commit the session's records still name them.
func (o *outbox) dropContent(ss *Session) {
	o.discards = append(o.discards, endedContent{ss.ID, ss.Asm})
	if ss.Final != nil {
		o.deleteBlobs([]string{ss.Final.ID})
	}
}

func (o *outbox) empty() bool {
	return len(o.deliveries) == 0 && !o.wake && len(o.blobs) == 0 && len(o.discards) == 0
}

// release sends out once every mark numbered up to mark is committed (at
// once without persistence, or when there is nothing to send). It runs
// outside the state's lock.
func (s *State) release(out *outbox, mark uint64) {
	if out.empty() {
		return
	}
	o := *out
	*out = outbox{}
	if s.Persist == nil {
		s.send(o)
		return
	}
	s.Persist.WhenCommitted(mark, func() { s.send(o) })
}

// send does the work of an outbox whose commit is durable: it wakes the
// long polls (a new Wake channel for the next ones), starts the
// deliveries, deletes the blobs and discards the ended sessions' content. It takes the state's lock briefly (after a flush's, as the
// lock order wants: a flush's Settle may call it).
func (s *State) send(o outbox) {
	if o.wake {
		s.mu.Lock()
		close(s.m.Events.Wake)
		s.m.Events.Wake = make(chan struct{})
		s.mu.Unlock()
	}
	if s.Deliver != nil {
		for _, d := range o.deliveries {
			s.Deliver(d)
		}
	}
	for _, id := range o.blobs {
		if err := s.Store.Delete(context.Background(), id); err != nil {
			s.ContentLeft("deleting blob", err, "blob", id)
		}
	}
	for _, d := range o.discards {
		if err := d.asm.Discard(); err != nil {
			s.ContentLeft("discarding upload session content", err, "session", d.session)
		}
	}
}
