package main

// The world of the hidden tests: one relay.Service with a recording sink (gates that hold
// chosen deliveries, failures by rule), an optional fake clock, a store that may be slow
// or hold one event's final write, and a dead-letter log. The probe reports what happened
// (every sink call's start and end in order, receipts, records, errors, waits); the tests
// decide whether it is right.

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"runtime"
	"sync"
	"time"

	"example.com/relay/internal/clock"
	"example.com/relay/internal/config"
	"example.com/relay/internal/event"
	"example.com/relay/internal/relay"
	"example.com/relay/internal/retry"
	"example.com/relay/internal/store"
)

var errUnavailable = errors.New("503 service unavailable")

type retrySpec struct {
	MaxAttempts int    `json:"max_attempts"`
	BackoffMS   *int64 `json:"backoff_ms"` // a constant backoff; none when absent
}

// storeSpec: an in-memory store, optionally slow (final_ms before every Delivered or Dead,
// dead_ms more before Dead; accept_sleep_ms before accepting every accept_every-th Seq),
// or holding the final write of one event (gate_id) until store_open.
type storeSpec struct {
	FinalMS       int64  `json:"final_ms"`
	DeadMS        int64  `json:"dead_ms"`
	AcceptEvery   uint64 `json:"accept_every"`
	AcceptSleepMS int64  `json:"accept_sleep_ms"`
	GateID        string `json:"gate_id"`
}

// A sink rule fails a call: for events with this ID and/or Type, on attempts below
// AttemptBelow and/or equal to AttemptIs; Fail is "unavailable" (a retryable 503) or
// "permanent" (retry.Permanent(Message)).
type rule struct {
	ID           string `json:"id"`
	Type         string `json:"type"`
	AttemptBelow int    `json:"attempt_below"`
	AttemptIs    int    `json:"attempt_is"`
	Fail         string `json:"fail"`
	Message      string `json:"message"`
}

// randomFailures: r := rand.New(Seed).Intn(100) per call; r < PermanentBelow fails
// permanently (Message), r < UnavailableBelow with a 503.
type randomFailures struct {
	Seed             int64  `json:"seed"`
	PermanentBelow   int    `json:"permanent_below"`
	UnavailableBelow int    `json:"unavailable_below"`
	Message          string `json:"message"`
}

type sinkSpec struct {
	Yield  bool            `json:"yield"` // a few runtime.Gosched() in every call
	Rules  []rule          `json:"rules"`
	Random *randomFailures `json:"random"`
}

// recSink records every call's start and end, in the order they happened (under one
// lock), and can hold chosen calls at a gate or make them fail.
type recSink struct {
	mu     sync.Mutex
	calls  map[string]int
	log    [][]any
	ok     map[string]bool
	gates  map[string]chan struct{}
	closer map[string]func()
	rnd    *rand.Rand
	yield  bool
	behave func(e event.Event, n int) error
}

func newSink(spec *sinkSpec) *recSink {
	s := &recSink{calls: map[string]int{}, ok: map[string]bool{}, gates: map[string]chan struct{}{},
		closer: map[string]func(){}, rnd: rand.New(rand.NewSource(7))}
	if spec == nil {
		return s
	}
	s.yield = spec.Yield
	rules := spec.Rules
	var rmu sync.Mutex
	var rr *rand.Rand
	if spec.Random != nil {
		rr = rand.New(rand.NewSource(spec.Random.Seed))
	}
	random := spec.Random
	s.behave = func(e event.Event, n int) error {
		if random != nil {
			rmu.Lock()
			r := rr.Intn(100)
			rmu.Unlock()
			switch {
			case r < random.PermanentBelow:
				return retry.Permanent(errors.New(random.Message))
			case r < random.UnavailableBelow:
				return errUnavailable
			}
		}
		for _, ru := range rules {
			if ru.ID != "" && ru.ID != e.ID || ru.Type != "" && ru.Type != e.Type ||
				ru.AttemptBelow > 0 && n >= ru.AttemptBelow || ru.AttemptIs > 0 && n != ru.AttemptIs {
				continue
			}
			if ru.Fail == "permanent" {
				return retry.Permanent(errors.New(ru.Message))
			}
			return errUnavailable
		}
		return nil
	}
	return s
}

func (s *recSink) Name() string { return "recording" }

func (s *recSink) hold(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := make(chan struct{})
	var once sync.Once
	s.gates[id] = ch
	s.closer[id] = func() { once.Do(func() { close(ch) }) }
}

func (s *recSink) release(id string) bool {
	s.mu.Lock()
	f := s.closer[id]
	s.mu.Unlock()
	if f != nil {
		f()
	}
	return f != nil
}

func (s *recSink) Deliver(ctx context.Context, e event.Event) error {
	s.mu.Lock()
	s.calls[e.ID]++
	n := s.calls[e.ID]
	s.log = append(s.log, []any{"start", e.ID, e.Key, e.Seq, n})
	gate := s.gates[e.ID]
	spins := 0
	if s.yield {
		spins = s.rnd.Intn(4)
	}
	s.mu.Unlock()
	if gate != nil {
		<-gate
	}
	for i := 0; i < spins; i++ {
		runtime.Gosched()
	}
	var err error
	if s.behave != nil {
		err = s.behave(e, n)
	}
	s.mu.Lock()
	var msg any
	if err != nil {
		msg = err.Error()
	} else {
		s.ok[e.ID] = true
	}
	s.log = append(s.log, []any{"end", e.ID, e.Key, e.Seq, n, msg})
	s.mu.Unlock()
	return err
}

// slowStore delays every final state change (Dead by dead more) and acceptances.
type slowStore struct {
	store.Store
	final       time.Duration
	dead        time.Duration
	acceptEvery uint64
	acceptSleep time.Duration
}

func (s slowStore) Accept(e event.Event) error {
	if s.acceptEvery > 0 && e.Seq%s.acceptEvery == 0 {
		time.Sleep(s.acceptSleep)
	}
	return s.Store.Accept(e)
}

func (s slowStore) Delivered(id string, n int) error {
	time.Sleep(s.final)
	return s.Store.Delivered(id, n)
}

func (s slowStore) Dead(id string, n int, err error) error {
	time.Sleep(s.final + s.dead)
	return s.Store.Dead(id, n, err)
}

// gateStore holds the final write (Delivered or Dead) of one event until open is closed,
// and closes entered when that write begins.
type gateStore struct {
	store.Store
	id      string
	entered chan struct{}
	open    chan struct{}
	once    sync.Once
	opened  sync.Once
}

func (g *gateStore) wait(id string) {
	if id == g.id {
		g.once.Do(func() { close(g.entered) })
		<-g.open
	}
}

func (g *gateStore) Delivered(id string, n int) error {
	g.wait(id)
	return g.Store.Delivered(id, n)
}

func (g *gateStore) Dead(id string, n int, err error) error {
	g.wait(id)
	return g.Store.Dead(id, n, err)
}

func (g *gateStore) openUp() { g.opened.Do(func() { close(g.open) }) }

type world struct {
	svc    *relay.Service
	sink   *recSink
	fake   *clock.Fake
	gate   *gateStore
	closed bool

	dmu    sync.Mutex
	dead   [][]any
	drains chan error
	closes chan error
	units  *unitState
}

func newWorld() *world { return &world{units: &unitState{}} }

func ms(n int64) time.Duration { return time.Duration(n) * time.Millisecond }

func errText(err error) any {
	if err == nil {
		return nil
	}
	return err.Error()
}

func within(limit time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(time.Millisecond)
	}
	return true
}

func receipt(rc relay.Receipt, err error) obs {
	if err != nil {
		return obs{"error": err.Error(), "closed": errors.Is(err, relay.ErrClosed), "invalid": errors.Is(err, event.ErrInvalid)}
	}
	return obs{"id": rc.ID, "seq": rc.Seq}
}

func (w *world) needService() error {
	if w.svc == nil {
		return errors.New("no service: send new first")
	}
	return nil
}

func (w *world) newService(req *request) (obs, error) {
	if w.svc != nil {
		return nil, errors.New("a service exists already")
	}
	w.sink = newSink(req.Sink)
	o := relay.Options{Workers: req.Workers, Sink: w.sink, IDPrefix: req.IDPrefix}
	switch req.Ordering {
	case "":
	case "unordered":
		o.Ordering = relay.Unordered
	case "per_key":
		o.Ordering = relay.PerKey
	default:
		return nil, fmt.Errorf("ordering %q", req.Ordering)
	}
	if req.Retry != nil {
		o.Retry = retry.Policy{MaxAttempts: req.Retry.MaxAttempts}
		if req.Retry.BackoffMS != nil {
			o.Retry.Backoff = retry.Constant(ms(*req.Retry.BackoffMS))
		}
	}
	if req.FakeClock {
		w.fake = clock.NewFake(time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC))
		o.Clock = w.fake
	}
	if sp := req.Store; sp != nil {
		mem := store.NewMemory(nil)
		if sp.GateID != "" {
			w.gate = &gateStore{Store: mem, id: sp.GateID, entered: make(chan struct{}), open: make(chan struct{})}
			o.Store = w.gate
		} else {
			o.Store = slowStore{Store: mem, final: ms(sp.FinalMS), dead: ms(sp.DeadMS),
				acceptEvery: sp.AcceptEvery, acceptSleep: ms(sp.AcceptSleepMS)}
		}
	}
	if req.DeadLetter {
		o.DeadLetter = func(e event.Event, attempts int, err error) {
			w.dmu.Lock()
			defer w.dmu.Unlock()
			w.dead = append(w.dead, []any{e.ID, attempts, errText(err)})
		}
	}
	svc, err := relay.New(o)
	if err != nil {
		return obs{"error": err.Error()}, nil
	}
	w.svc = svc
	return obs{}, nil
}

func (w *world) publish(key, typ string, payload *string) (relay.Receipt, error) {
	e := event.Event{Key: key, Type: typ}
	if payload != nil {
		e.Payload = []byte(*payload)
	}
	return w.svc.Publish(e)
}

func (w *world) cond(req *request) (func() bool, error) {
	s := w.sink
	switch req.Cond {
	case "started":
		return func() bool {
			s.mu.Lock()
			defer s.mu.Unlock()
			for _, id := range req.IDs {
				if s.calls[id] == 0 {
					return false
				}
			}
			return true
		}, nil
	case "succeeded":
		return func() bool {
			s.mu.Lock()
			defer s.mu.Unlock()
			for _, id := range req.IDs {
				if !s.ok[id] {
					return false
				}
			}
			return true
		}, nil
	case "started_count":
		return func() bool {
			s.mu.Lock()
			defer s.mu.Unlock()
			n := 0
			for _, c := range s.calls {
				n += c
			}
			return n >= req.N
		}, nil
	case "clock_pending":
		if w.fake == nil {
			return nil, errors.New("no fake clock")
		}
		return func() bool { return w.fake.Pending() == req.N }, nil
	case "store_entered":
		if w.gate == nil {
			return nil, errors.New("no gated store")
		}
		return func() bool {
			select {
			case <-w.gate.entered:
				return true
			default:
				return false
			}
		}, nil
	}
	return nil, fmt.Errorf("condition %q", req.Cond)
}

func waitResult(ch chan error, limit time.Duration) obs {
	select {
	case err := <-ch:
		return obs{"done": true, "error": errText(err), "deadline": errors.Is(err, context.DeadlineExceeded)}
	case <-time.After(limit):
		return obs{"done": false}
	}
}

func (w *world) handle(req *request) (obs, error) {
	switch req.Op {
	case "new":
		return w.newService(req)
	case "unit":
		return runUnit(w, req)
	case "config_ordering":
		return configOrdering(req.Text), nil
	case "api":
		return apiObservations(), nil
	case "api_start", "http", "api_sink_count":
		return w.units.api(req)
	case "finish":
		// What the hidden tests' clean-up did: Close the service (unless the test did),
		// which must return within the limit.
		a := obs{}
		if w.svc != nil && !w.closed {
			w.closed = true
			ch := make(chan error, 1)
			go func() { ch <- w.svc.Close() }()
			a = waitResult(ch, ms(req.TimeoutMS))
		}
		a["race_errors"] = raceErrors()
		return a, nil
	case "cleanup":
		// The clean-ups of the units run so far (Close of what they started).
		return obs{"results": w.units.release(), "race_errors": raceErrors()}, nil
	}
	if err := w.needService(); err != nil {
		return nil, err
	}
	switch req.Op {
	case "hold":
		w.sink.hold(req.ID)
		return obs{}, nil
	case "release":
		return obs{"held": w.sink.release(req.ID)}, nil
	case "publish":
		return receipt(w.publish(req.Key, req.Type, req.Payload)), nil
	case "publish_batch":
		var out []obs
		for _, ev := range req.Events {
			rc, err := w.publish(ev[0], ev[1], req.Payload)
			out = append(out, receipt(rc, err))
			if err != nil {
				break
			}
		}
		return obs{"receipts": out}, nil
	case "publish_concurrent":
		got := make(chan obs, req.Goroutines*req.Each)
		var wg sync.WaitGroup
		for g := 0; g < req.Goroutines; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < req.Each; i++ {
					rc, err := w.svc.Publish(event.Event{Key: req.Key, Type: req.Type})
					got <- receipt(rc, err)
					if err != nil {
						return
					}
				}
			}()
		}
		wg.Wait()
		close(got)
		var out []obs
		for o := range got {
			out = append(out, o)
		}
		return obs{"receipts": out}, nil
	case "publish_until_closed":
		// Publishes events of type Type until Publish refuses with relay.ErrClosed (or
		// the limit passes); reports the receipts of those it accepted.
		var accepted []obs
		var last error
		refused := within(ms(req.TimeoutMS), func() bool {
			rc, err := w.publish("", req.Type, nil)
			if err == nil {
				accepted = append(accepted, obs{"id": rc.ID, "seq": rc.Seq})
			}
			last = err
			return errors.Is(err, relay.ErrClosed)
		})
		return obs{"accepted": accepted, "refused": refused, "error": errText(last)}, nil
	case "wait":
		cond, err := w.cond(req)
		if err != nil {
			return nil, err
		}
		start := time.Now()
		ok := within(ms(req.TimeoutMS), cond)
		return obs{"ok": ok, "ms": time.Since(start).Milliseconds()}, nil
	case "drain":
		ctx, cancel := context.WithTimeout(context.Background(), ms(req.TimeoutMS))
		defer cancel()
		err := w.svc.Drain(ctx)
		return obs{"error": errText(err), "deadline": errors.Is(err, context.DeadlineExceeded), "pending": w.svc.Pending()}, nil
	case "drain_async":
		w.drains = make(chan error, 1)
		limit := ms(req.TimeoutMS)
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), limit)
			defer cancel()
			w.drains <- w.svc.Drain(ctx)
		}()
		return obs{}, nil
	case "drain_wait":
		if w.drains == nil {
			return nil, errors.New("no drain_async")
		}
		return waitResult(w.drains, ms(req.MS)), nil
	case "close_async":
		w.closes = make(chan error, 1)
		w.closed = true
		go func() { w.closes <- w.svc.Close() }()
		return obs{}, nil
	case "close_wait":
		if w.closes == nil {
			return nil, errors.New("no close_async")
		}
		return waitResult(w.closes, ms(req.MS)), nil
	case "advance":
		if w.fake == nil {
			return nil, errors.New("no fake clock")
		}
		w.fake.Advance(ms(req.MS))
		return obs{}, nil
	case "clock_pending":
		if w.fake == nil {
			return nil, errors.New("no fake clock")
		}
		return obs{"pending": w.fake.Pending()}, nil
	case "store_open":
		if w.gate == nil {
			return nil, errors.New("no gated store")
		}
		w.gate.openUp()
		return obs{}, nil
	case "pending":
		return obs{"pending": w.svc.Pending()}, nil
	case "status":
		var out []obs
		for _, id := range req.IDs {
			r, err := w.svc.Status(id)
			if err != nil {
				out = append(out, obs{"id": id, "error": err.Error()})
				continue
			}
			out = append(out, obs{"id": r.ID, "seq": r.Seq, "key": r.Key, "state": r.State.String(),
				"final": r.State.Final(), "is_pending": r.State == store.Pending, "is_delivered": r.State == store.Delivered,
				"is_dead": r.State == store.Dead, "attempts": r.Attempts, "last_error": r.LastError})
		}
		return obs{"records": out}, nil
	case "trace":
		w.sink.mu.Lock()
		defer w.sink.mu.Unlock()
		return obs{"log": append([][]any(nil), w.sink.log...)}, nil
	case "dead_letters":
		w.dmu.Lock()
		defer w.dmu.Unlock()
		return obs{"dead": append([][]any(nil), w.dead...)}, nil
	}
	return nil, fmt.Errorf("unknown operation %q", req.Op)
}

// configOrdering parses a relayd config and reports the Ordering its ServiceOptions carry,
// as compared (==) with the package's constants.
func configOrdering(text string) obs {
	c, err := config.Parse([]byte(text))
	if err != nil {
		return obs{"error": err.Error()}
	}
	got := c.ServiceOptions(newSink(nil)).Ordering
	return obs{"error": nil, "is_per_key": got == relay.PerKey, "is_unordered": got == relay.Unordered,
		"value": fmt.Sprintf("%#v", got)}
}

func apiObservations() obs {
	var zero relay.Options
	return obs{
		"per_key_is_unordered":   relay.PerKey == relay.Unordered,
		"zero_options_unordered": zero.Ordering == relay.Unordered,
		"zero_options_per_key":   zero.Ordering == relay.PerKey,
		"exported_errors_nil": []bool{relay.ErrClosed == nil, dispatchErrClosed() == nil, queueErrClosed() == nil,
			store.ErrNotFound == nil},
	}
}
