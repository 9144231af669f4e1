// Package relay is the service: it accepts events, gives each an ID and a sequence
// number, records it, and hands it to the dispatcher for delivery.
package relay

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"example.com/relay/internal/clock"
	"example.com/relay/internal/dispatch"
	"example.com/relay/internal/event"
	"example.com/relay/internal/logx"
	"example.com/relay/internal/metrics"
	"example.com/relay/internal/store"
)

// ErrClosed is returned by Publish after Close.
var ErrClosed = errors.New("relay closed")

// Receipt identifies an accepted event.
type Receipt struct {
	ID  string
	Seq uint64
}

// Service is safe for concurrent use: the HTTP handlers call Publish from many
// goroutines at once.
type Service struct {
	store store.Store
	disp  *dispatch.Dispatcher
	ids   *event.IDs
	clock clock.Clock
	log   *logx.Logger
	// publish makes numbering, recording and submitting one step, so that the
	// dispatcher sees the events in Seq order even when Publish runs concurrently.
	publish  sync.Mutex
	seq      atomic.Uint64
	closed   atomic.Bool
	accepted *metrics.Counter
	refused  *metrics.Counter
}

// New builds a service and starts its workers.
func New(o Options) (*Service, error) {
	if o.Sink == nil {
		return nil, errors.New("relay: a Sink is required")
	}
	if o.Store == nil {
		o.Store = store.NewMemory(nil)
	}
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	d, err := dispatch.New(dispatch.Config{
		Workers:        o.Workers,
		Sink:           o.Sink,
		Store:          o.Store,
		Retry:          o.Retry,
		Clock:          o.Clock,
		AttemptTimeout: o.AttemptTimeout,
		DeadLetter:     o.DeadLetter,
		Ordering:       o.Ordering,
		Metrics:        o.Metrics,
		Log:            o.Log,
	})
	if err != nil {
		return nil, err
	}
	s := &Service{
		store:    o.Store,
		disp:     d,
		ids:      event.NewIDs(o.IDPrefix),
		clock:    o.Clock,
		log:      o.Log,
		accepted: o.Metrics.Counter("relay_accepted_total", "Events accepted."),
		refused:  o.Metrics.Counter("relay_refused_total", "Events refused (invalid, or the relay is closed)."),
	}
	d.Start()
	return s, nil
}

// Publish validates e, assigns its ID and sequence number, records it and queues its
// delivery. It returns once the event is accepted, not once it is delivered.
func (s *Service) Publish(e event.Event) (Receipt, error) {
	if s.closed.Load() {
		s.refused.Inc()
		return Receipt{}, ErrClosed
	}
	if err := event.Validate(e); err != nil {
		s.refused.Inc()
		return Receipt{}, err
	}
	e = e.Clone()
	s.publish.Lock()
	defer s.publish.Unlock()
	e.ID = s.ids.Next()
	e.Seq = s.seq.Add(1)
	e.Accepted = s.clock.Now()
	if err := s.store.Accept(e); err != nil {
		return Receipt{}, fmt.Errorf("recording %s: %w", e.ID, err)
	}
	if err := s.disp.Submit(e); err != nil {
		_ = s.store.Dead(e.ID, 0, err)
		if errors.Is(err, dispatch.ErrClosed) {
			err = ErrClosed
		}
		s.refused.Inc()
		return Receipt{}, err
	}
	s.accepted.Inc()
	s.log.Debug("accepted", map[string]any{"id": e.ID, "key": e.Key, "seq": e.Seq})
	return Receipt{ID: e.ID, Seq: e.Seq}, nil
}

// Status returns what the store knows about one event.
func (s *Service) Status(id string) (store.Record, error) { return s.store.Get(id) }

// List returns the records in acceptance order, optionally only those in one state.
func (s *Service) List(state *store.State) []store.Record { return s.store.List(state) }

// Pending is the number of accepted events whose outcome is not final yet.
func (s *Service) Pending() int { return s.disp.Pending() }

// Drain returns once every event accepted so far is delivered or dead (its final state
// recorded in the store), or with ctx's error.
func (s *Service) Drain(ctx context.Context) error { return s.disp.Drain(ctx) }

// Close refuses new events and stops the workers once the queued attempts are made.
func (s *Service) Close() error {
	s.closed.Store(true)
	return s.disp.Close()
}
