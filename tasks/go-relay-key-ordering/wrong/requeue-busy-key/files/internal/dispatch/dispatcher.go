// Package dispatch runs the delivery workers: it takes accepted events, hands them to
// the sink, schedules retries and records every outcome in the store.
package dispatch

import (
	"context"
	"errors"
	"sync"
	"time"

	"example.com/relay/internal/clock"
	"example.com/relay/internal/event"
	"example.com/relay/internal/logx"
	"example.com/relay/internal/metrics"
	"example.com/relay/internal/queue"
	"example.com/relay/internal/retry"
	"example.com/relay/internal/sink"
	"example.com/relay/internal/store"
	"example.com/relay/internal/syncx"
)

// ErrClosed is returned by Submit after Close.
var ErrClosed = errors.New("dispatcher closed")

// Config of a Dispatcher. Sink and Store are required.
type Config struct {
	// Workers is the number of concurrent deliveries (default 4).
	Workers int
	Sink    sink.Sink
	Store   store.Store
	Retry   retry.Policy
	// Clock schedules retries (default the wall clock).
	Clock clock.Clock
	// AttemptTimeout bounds one delivery attempt (0: no bound).
	AttemptTimeout time.Duration
	// DeadLetter, if set, is called once for every event given up on.
	DeadLetter DeadLetter
	// Ordering of the events that share a key (default Unordered).
	Ordering Ordering
	Metrics  *metrics.Registry
	Log      *logx.Logger
}

// Dispatcher delivers submitted events with a pool of workers.
type Dispatcher struct {
	cfg   Config
	q     queue.Queue
	stats stats

	// pending counts submitted events whose outcome is not final yet.
	pending syncx.Pending
	workers sync.WaitGroup

	mu      sync.Mutex
	started bool
	closed  bool
	timers  map[*retryTimer]struct{}
	// lanes has an entry for every key with an event in progress (PerKey only).
	lanes map[string]*lane
	owner map[string]string
}

// New checks cfg and returns a dispatcher that is not started yet.
func New(cfg Config) (*Dispatcher, error) {
	if cfg.Sink == nil || cfg.Store == nil {
		return nil, errors.New("dispatch: Sink and Store are required")
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 4
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.Real{}
	}
	return &Dispatcher{
		cfg:    cfg,
		q:      queue.NewFIFO(),
		stats:  newStats(cfg.Metrics),
		timers: make(map[*retryTimer]struct{}),
		lanes:  make(map[string]*lane),
		owner:  make(map[string]string),
	}, nil
}

// Start launches the workers. Events submitted before Start wait in the queue.
func (d *Dispatcher) Start() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.started || d.closed {
		return
	}
	d.started = true
	for i := 0; i < d.cfg.Workers; i++ {
		d.workers.Add(1)
		go d.work()
	}
}

// Submit queues the first delivery attempt of an accepted event.
func (d *Dispatcher) Submit(e event.Event) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return ErrClosed
	}
	it := queue.Item{Event: e, Attempt: 1}
	d.pending.Add(1)
	if !d.admit(it) {
		// Queued behind the key's current event; release() pushes it.
		return nil
	}
	if err := d.q.Push(it); err != nil {
		if d.ordered(it) {
			delete(d.lanes, e.Key)
		}
		d.pending.Done()
		return err
	}
	d.stats.queued.Set(int64(d.q.Len()))
	return nil
}

// Pending is the number of submitted events whose outcome is not final yet.
func (d *Dispatcher) Pending() int { return d.pending.Count() }

// Drain waits until every submitted event is delivered or dead (its final state
// recorded in the store), or ctx ends.
func (d *Dispatcher) Drain(ctx context.Context) error {
	return d.pending.Wait(ctx)
}

// Close stops accepting events, lets the workers finish what is queued, cancels the
// scheduled retries (their events go to the dead-letter handler) and waits for the
// workers to stop.
func (d *Dispatcher) Close() error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil
	}
	d.closed = true
	var cancelled []*retryTimer
	for t := range d.timers {
		// A timer that already fired removes itself and pushes its attempt.
		if t.timer.Stop() {
			cancelled = append(cancelled, t)
			delete(d.timers, t)
		}
	}
	started := d.started
	d.mu.Unlock()

	for _, t := range cancelled {
		d.finish(t.item, ErrClosed)
	}
	d.q.Close()
	if !started {
		// Nothing will ever pop what is queued: give it up.
		for d.q.Len() > 0 {
			it, err := d.q.Pop(context.Background())
			if err != nil {
				break
			}
			d.finish(it, ErrClosed)
		}
	}
	d.workers.Wait()
	// A retry whose timer fired as Close began pushes its attempt, or gives it up, on the
	// timer's goroutine; an event waiting behind its key is given up when the key's
	// current event finishes. Close returns once none is left pending.
	_ = d.pending.Wait(context.Background())
	return nil
}
