package dispatch

import (
	"fmt"

	"example.com/relay/internal/queue"
)

// Ordering says how the deliveries of events that share a key relate.
type Ordering int

const (
	// Unordered delivers every event as soon as a worker is free.
	Unordered Ordering = iota
	// PerKey delivers the events of one non-empty key one at a time, in the order they
	// were submitted; a failed attempt's retries come before the key's next event.
	PerKey
)

func (o Ordering) String() string {
	switch o {
	case Unordered:
		return "unordered"
	case PerKey:
		return "per_key"
	}
	return fmt.Sprintf("Ordering(%d)", int(o))
}

// lane holds the events of one key that wait for the key's current event to finish.
// A key has a lane exactly while one of its events is queued, being attempted or
// waiting for a retry.
type lane struct {
	waiting []queue.Item
}

// ordered reports whether the item takes part in per-key ordering.
func (d *Dispatcher) ordered(it queue.Item) bool {
	return d.cfg.Ordering == PerKey && it.Event.Key != ""
}

// admit decides, with d.mu held, whether a newly submitted item may be queued now (the
// key is idle) or must wait behind the key's current event.
func (d *Dispatcher) admit(it queue.Item) bool {
	if !d.ordered(it) {
		return true
	}
	if l, busy := d.lanes[it.Event.Key]; busy {
		l.waiting = append(l.waiting, it)
		return false
	}
	d.lanes[it.Event.Key] = &lane{}
	return true
}

// release hands the key of a finished item to its next waiting event, if any.
func (d *Dispatcher) release(it queue.Item) {
	if !d.ordered(it) {
		return
	}
	d.mu.Lock()
	l := d.lanes[it.Event.Key]
	if l == nil {
		d.mu.Unlock()
		return
	}
	if len(l.waiting) == 0 {
		delete(d.lanes, it.Event.Key)
		d.mu.Unlock()
		return
	}
	next := l.waiting[0]
	l.waiting[0] = queue.Item{}
	l.waiting = l.waiting[1:]
	err := d.q.Push(next)
	d.mu.Unlock()
	if err != nil {
		// Closed: the key's remaining events are given up on, in order.
		d.finish(next, err)
	}
}
