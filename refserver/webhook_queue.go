package refserver

import (
	"container/list"
	"log/slog"
	"sync"
	"time"
)

// The webhook delivery queue (webhook_delivery.go makes the attempts).
//
// Memory is bounded: the queue holds at most Options.WebhookQueueLimit
// deliveries (default DefaultWebhookQueueLimit) and
// Options.WebhookQueueBytes of their payloads (default
// DefaultWebhookQueueBytes), counting those waiting for a retry. A
// delivery that would pass a bound drops the oldest queued delivery not in
// flight first (oldest-first: a receiver that refuses for hours loses its
// oldest payloads, not the newest); when nothing can be dropped (every
// queued delivery is in flight, or the payload alone is over the bound)
// the new one is dropped. Every drop is counted (Server.WebhookQueueStats)
// and logged. A delivery waiting for its retry holds a timer, not a
// goroutine.
//
// Attempts run in at most maxConcurrentDeliveries slots, shared fairly
// between the webhooks' owners (the users who created them): an owner
// starts an attempt only while it runs fewer than its share, the slots
// divided by one more than the owners with deliveries in flight or ready
// (at least 1), so one owner's hanging receivers never take every slot
// and a newcomer finds one free while fewer owners than slots deliver;
// ready deliveries are taken round robin across owners, each owner's in
// the order they came.

// Defaults of the queue's bounds.
const (
	DefaultWebhookQueueLimit = 10_000
	DefaultWebhookQueueBytes = 16 << 20
)

// attemptResult is what one delivery attempt came to.
type attemptResult int

const (
	attemptDone   attemptResult = iota // taken, or nothing more to do (webhook gone, address refused)
	attemptFailed                      // refused or unanswered: retried later
)

// WebhookQueueStats describes the webhook delivery queue.
type WebhookQueueStats struct {
	// Queued is how many deliveries are queued (in flight, ready, or
	// waiting for a retry); Bytes the size of their payloads.
	Queued int
	Bytes  int64
	// InFlight is how many attempts are running.
	InFlight int
	// Dropped counts the deliveries dropped to keep the queue within its
	// bounds (Options.WebhookQueueLimit, WebhookQueueBytes).
	Dropped int64
}

// WebhookQueueStats returns the state of the webhook delivery queue.
func (s *Server) WebhookQueueStats() WebhookQueueStats { return s.hooks.stats() }

// hookQueue holds the deliveries on their way and runs their attempts
// (see the top of the file).
type hookQueue struct {
	slots      int
	maxCount   int
	maxBytes   int64
	retryDelay time.Duration
	maxRetries int
	send       func(*delivery) attemptResult // one attempt
	wg         *sync.WaitGroup               // counts the running attempts
	log        *slog.Logger

	mu       sync.Mutex
	closed   bool
	all      list.List // of *delivery, oldest first
	bytes    int64
	dropped  int64
	owners   map[string]*hookOwner // owners with deliveries ready or in flight
	turn     []*hookOwner          // owners with ready deliveries, in turn
	inFlight int
	// inFlightBytes is the size of the payloads in flight.
	inFlightBytes int64
}

// hookOwner is one owner's part of the queue.
type hookOwner struct {
	id      string
	ready   []*delivery // in the order they came
	running int
	inTurn  bool
}

func (q *hookQueue) stats() WebhookQueueStats {
	q.mu.Lock()
	defer q.mu.Unlock()
	return WebhookQueueStats{Queued: q.all.Len(), Bytes: q.bytes, InFlight: q.inFlight, Dropped: q.dropped}
}

// add queues a new delivery, within the bounds, and starts what the
// slots allow.
func (q *hookQueue) add(d *delivery) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return
	}
	size := int64(len(d.body))
	over := func() bool { return q.all.Len()+1 > q.maxCount || q.bytes+size > q.maxBytes }
	// Drop older ones only when that can make room: what is in flight
	// stays.
	fits := q.inFlight+1 <= q.maxCount && q.inFlightBytes+size <= q.maxBytes
	for fits && over() && q.dropOldest() {
	}
	if over() {
		q.dropped++
		q.log.Warn("webhook delivery dropped: the delivery queue is full", "webhook", d.hookID)
		return
	}
	d.delay = q.retryDelay
	d.elem = q.all.PushBack(d)
	q.bytes += size
	q.makeReady(d)
	q.dispatch()
}

// dropOldest drops the oldest delivery not in flight; false when every
// queued delivery is in flight.
func (q *hookQueue) dropOldest() bool {
	for e := q.all.Front(); e != nil; e = e.Next() {
		d := e.Value.(*delivery)
		if d.running {
			continue
		}
		if o := q.owners[d.owner]; o != nil {
			for i, r := range o.ready {
				if r == d {
					o.ready = append(o.ready[:i], o.ready[i+1:]...)
					break
				}
			}
			if len(o.ready) == 0 && o.inTurn {
				q.leaveTurn(o)
			}
			q.forget(o)
		}
		q.remove(d)
		q.dropped++
		q.log.Warn("webhook delivery dropped: the delivery queue is full, oldest first", "webhook", d.hookID)
		return true
	}
	return false
}

// remove takes d out of the queue (done, given up, dropped or closed).
func (q *hookQueue) remove(d *delivery) {
	if d.timer != nil {
		d.timer.Stop()
		d.timer = nil
	}
	q.all.Remove(d.elem)
	d.elem = nil
	q.bytes -= int64(len(d.body))
}

// makeReady puts d at the end of its owner's ready deliveries.
func (q *hookQueue) makeReady(d *delivery) {
	o := q.owners[d.owner]
	if o == nil {
		o = &hookOwner{id: d.owner}
		q.owners[d.owner] = o
	}
	o.ready = append(o.ready, d)
	if !o.inTurn {
		o.inTurn = true
		q.turn = append(q.turn, o)
	}
}

// leaveTurn takes o out of the turn.
func (q *hookQueue) leaveTurn(o *hookOwner) {
	for i, t := range q.turn {
		if t == o {
			q.turn = append(q.turn[:i], q.turn[i+1:]...)
			break
		}
	}
	o.inTurn = false
}

// forget drops an owner with nothing ready or in flight.
func (q *hookQueue) forget(o *hookOwner) {
	if o.running == 0 && len(o.ready) == 0 {
		delete(q.owners, o.id)
	}
}

// share is how many slots one owner may run at once now.
func (q *hookQueue) share() int { return max(1, q.slots/(len(q.owners)+1)) }

// dispatch starts ready deliveries while slots are free, round robin
// across the owners under their share.
func (q *hookQueue) dispatch() {
	for q.inFlight < q.slots && !q.closed {
		share := q.share()
		var o *hookOwner
		for _, t := range q.turn {
			if t.running < share {
				o = t
				break
			}
		}
		if o == nil {
			return
		}
		d := o.ready[0]
		o.ready[0] = nil
		o.ready = o.ready[1:]
		q.leaveTurn(o)
		if len(o.ready) > 0 { // to the end of the turn
			o.inTurn = true
			q.turn = append(q.turn, o)
		}
		o.running++
		q.inFlight++
		q.inFlightBytes += int64(len(d.body))
		d.running = true
		q.wg.Add(1)
		go q.run(d)
	}
}

// run makes one attempt of d, then retries it later, or lets it go.
func (q *hookQueue) run(d *delivery) {
	defer q.wg.Done()
	res := q.send(d)
	q.mu.Lock()
	defer q.mu.Unlock()
	o := q.owners[d.owner]
	o.running--
	q.inFlight--
	q.inFlightBytes -= int64(len(d.body))
	d.running = false
	if d.elem != nil { // not closed meanwhile
		switch {
		case q.closed || res == attemptDone:
			q.remove(d)
		case d.attempt < q.maxRetries:
			d.attempt++
			delay := d.delay
			d.delay *= 2
			d.timer = time.AfterFunc(delay, func() { q.retry(d) })
		default:
			q.log.Warn("webhook delivery failed after every retry", "webhook", d.hookID)
			q.remove(d)
		}
	}
	q.forget(o)
	q.dispatch()
}

// retry makes d ready again once its retry delay passed.
func (q *hookQueue) retry(d *delivery) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if d.elem == nil || q.closed { // dropped or closed meanwhile
		return
	}
	d.timer = nil
	q.makeReady(d)
	q.dispatch()
}

// close drops every queued delivery (the server closes); attempts in
// flight end with the server's context.
func (q *hookQueue) close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	for e := q.all.Front(); e != nil; {
		next := e.Next()
		if d := e.Value.(*delivery); !d.running {
			q.remove(d)
		}
		e = next
	}
	for _, o := range q.owners {
		o.ready, o.inTurn = nil, false
	}
	q.turn = nil
}
