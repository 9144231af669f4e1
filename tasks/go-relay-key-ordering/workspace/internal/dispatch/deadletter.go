package dispatch

import (
	"example.com/relay/internal/event"
	"example.com/relay/internal/queue"
)

// DeadLetter receives an event the dispatcher gave up on, the number of attempts made
// and the last error. It runs on a worker goroutine and must not block for long.
type DeadLetter func(e event.Event, attempts int, err error)

func (d *Dispatcher) deadLetter(it queue.Item, err error) {
	if d.cfg.DeadLetter == nil {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			d.cfg.Log.Error("dead-letter handler panicked", map[string]any{"id": it.Event.ID, "panic": r})
		}
	}()
	d.cfg.DeadLetter(it.Event.Clone(), it.Attempt, err)
}
