package dispatch

import (
	"context"
	"fmt"
	"time"

	"example.com/relay/internal/queue"
)

type retryTimer struct {
	item  queue.Item
	timer interface{ Stop() bool }
}

func (d *Dispatcher) work() {
	defer d.workers.Done()
	for {
		it, err := d.q.Pop(context.Background())
		if err != nil {
			return
		}
		d.stats.queued.Set(int64(d.q.Len()))
		d.attempt(it)
	}
}

// attempt makes one delivery attempt and decides what happens next.
func (d *Dispatcher) attempt(it queue.Item) {
	d.stats.inflight.Add(1)
	err := d.deliver(it)
	d.stats.inflight.Add(-1)
	d.stats.attempts.Inc()
	if err == nil {
		d.finish(it, nil)
		return
	}
	d.record(d.cfg.Store.Attempted(it.Event.ID, it.Attempt, err))
	delay, again := d.cfg.Retry.Next(it.Attempt, err)
	if !again {
		d.finish(it, err)
		return
	}
	d.stats.retries.Inc()
	d.cfg.Log.Debug("delivery failed, retrying", map[string]any{"id": it.Event.ID, "attempt": it.Attempt, "delay": delay, "error": err})
	d.schedule(queue.Item{Event: it.Event, Attempt: it.Attempt + 1}, delay)
}

// deliver calls the sink once; a panic in the sink counts as a failed attempt.
func (d *Dispatcher) deliver(it queue.Item) (err error) {
	ctx := context.Background()
	if d.cfg.AttemptTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d.cfg.AttemptTimeout)
		defer cancel()
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("sink %s panicked: %v", d.cfg.Sink.Name(), r)
		}
	}()
	return d.cfg.Sink.Deliver(ctx, it.Event.Clone())
}

// schedule queues the next attempt after delay. The event keeps its key meanwhile
// (PerKey): its retry comes before the key's next event.
func (d *Dispatcher) schedule(next queue.Item, delay time.Duration) {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		go d.finish(next, ErrClosed)
		return
	}
	if delay <= 0 {
		err := d.q.Push(next)
		d.mu.Unlock()
		if err != nil {
			d.finish(next, err)
		}
		return
	}
	t := &retryTimer{item: next}
	t.timer = d.cfg.Clock.AfterFunc(delay, func() {
		d.mu.Lock()
		_, live := d.timers[t]
		delete(d.timers, t)
		d.mu.Unlock()
		if !live {
			return
		}
		if err := d.q.Push(next); err != nil {
			d.finish(next, err)
		}
	})
	d.timers[t] = struct{}{}
	d.mu.Unlock()
}

// finish records the final outcome of an event, delivered (err == nil) or dead, hands
// its key on to the key's next event, and only then counts it as done: Drain must not
// return before the outcome is in the store.
func (d *Dispatcher) finish(it queue.Item, err error) {
	defer d.pending.Done()
	if err == nil {
		d.stats.delivered.Inc()
		d.record(d.cfg.Store.Delivered(it.Event.ID, it.Attempt))
	} else {
		d.stats.dead.Inc()
		d.record(d.cfg.Store.Dead(it.Event.ID, it.Attempt, err))
		d.deadLetter(it, err)
	}
	d.release(it)
}

func (d *Dispatcher) record(err error) {
	if err != nil {
		d.stats.storeErrors.Inc()
		d.cfg.Log.Error("store update failed", map[string]any{"error": err})
	}
}
