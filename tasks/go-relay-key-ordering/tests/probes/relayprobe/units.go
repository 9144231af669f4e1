package main

// The workspace's own tests, as shipped (tests/probes/workspace/internal/*/*_test.go),
// turned into observations: each unit runs the scenario of one of those tests on the
// agent's packages and reports what came back. The expected values, and the assertions,
// are the runner's (test_workspace_packages.py).

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"example.com/relay/internal/api"
	"example.com/relay/internal/clock"
	"example.com/relay/internal/config"
	"example.com/relay/internal/dispatch"
	"example.com/relay/internal/event"
	"example.com/relay/internal/logx"
	"example.com/relay/internal/metrics"
	"example.com/relay/internal/queue"
	"example.com/relay/internal/ratelimit"
	"example.com/relay/internal/relay"
	"example.com/relay/internal/retry"
	"example.com/relay/internal/sink"
	"example.com/relay/internal/store"
	"example.com/relay/internal/syncx"
)

// How long a unit waits for something that must happen at once.
const unitLimit = 5 * time.Second

type unitState struct {
	mu       sync.Mutex
	releases []func() any
	srv      *httptest.Server
	svc      *relay.Service
	mem      *sink.Memory
}

// onExit registers what a shipped test's clean-up did (t.Cleanup, defer); f reports how
// it went (nil, an error, or that it did not return in time).
func (u *unitState) onExit(f func() any) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.releases = append(u.releases, f)
}

// release runs the clean-ups, last registered first.
func (u *unitState) release() []any {
	u.mu.Lock()
	fs := u.releases
	u.releases = nil
	u.mu.Unlock()
	out := []any{}
	for i := len(fs) - 1; i >= 0; i-- {
		out = append(out, fs[i]())
	}
	return out
}

// closeIn calls close; its error, or "did not return" after the limit.
func closeIn(close func() error) any {
	ch := make(chan error, 1)
	go func() { ch <- close() }()
	select {
	case err := <-ch:
		return errText(err)
	case <-time.After(unitLimit):
		return "did not return"
	}
}

// recv waits for a value on ch; nil when none came within the limit.
func recv(ch chan int) any {
	select {
	case v := <-ch:
		return v
	case <-time.After(unitLimit):
		return nil
	}
}

func runUnit(w *world, req *request) (obs, error) {
	f, ok := units[req.Name]
	if !ok {
		return nil, fmt.Errorf("unknown unit %q", req.Name)
	}
	return f(w.units, req), nil
}

var units = map[string]func(u *unitState, req *request) obs{
	// internal/clock: TestFakeFiresDueTimers
	"clock_fake_fires_due_timers": func(u *unitState, req *request) obs {
		c := clock.NewFake(time.Unix(0, 0))
		done := make(chan int, 3)
		c.AfterFunc(2*time.Second, func() { done <- 2 })
		c.AfterFunc(time.Second, func() { done <- 1 })
		stopped := c.AfterFunc(time.Second, func() { done <- 9 })
		a := obs{"stop": stopped.Stop()}
		c.Advance(1500 * time.Millisecond)
		a["first"] = recv(done)
		a["pending"] = c.Pending()
		c.Advance(time.Second)
		a["second"] = recv(done)
		return a
	},

	// internal/config: TestParseDefaults, TestParseRefuses
	"config_parse": func(u *unitState, req *request) obs {
		c, err := config.Parse([]byte(req.Text))
		if err != nil {
			return obs{"error": err.Error()}
		}
		o := c.ServiceOptions(sink.NewMemory(nil))
		var delay any
		if o.Retry.Backoff != nil {
			delay = int64(o.Retry.Backoff.Delay(2))
		}
		return obs{"error": nil, "workers": c.Workers, "listen": c.Listen, "retry_max_attempts": c.Retry.MaxAttempts,
			"sink_timeout_ms": c.Sink.TimeoutMS, "opt_workers": o.Workers, "opt_retry_max_attempts": o.Retry.MaxAttempts,
			"opt_id_prefix": o.IDPrefix, "opt_backoff_2_ns": delay}
	},
	// internal/config: TestShippedConfigParses (the probe runs in the module's folder)
	"config_shipped": func(u *unitState, req *request) obs {
		a := obs{}
		data, err := os.ReadFile(filepath.Join("config", "relay.json"))
		a["read_error"] = errText(err)
		if err == nil {
			_, err = config.Parse(data)
			a["parse_error"] = errText(err)
		}
		dir, err := os.MkdirTemp("", "nab-config-")
		if err != nil {
			return obs{"probe_error": err.Error()}
		}
		defer os.RemoveAll(dir)
		_, err = config.Load(filepath.Join(dir, "missing.json"))
		a["load_missing_error"] = errText(err)
		return a
	},

	// internal/dispatch
	"dispatch_delivers_everything": func(u *unitState, req *request) obs {
		mem := sink.NewMemory(nil)
		f := newFixture(u, mem, retry.Policy{}, 4)
		var errs []any
		for i := 1; i <= 50; i++ {
			if err := f.submit("e"+string(rune('A'+i%26))+string(rune('a'+i/26)), uint64(i)); err != nil {
				errs = append(errs, err.Error())
			}
		}
		return obs{"fixture_error": errText(f.err), "submit_errors": errs, "drain_error": f.drain(), "delivered": len(mem.Events())}
	},
	"dispatch_retries_after_backoff": func(u *unitState, req *request) obs {
		var mu sync.Mutex
		calls := 0
		s := sink.Func(func(ctx context.Context, e event.Event) error {
			mu.Lock()
			defer mu.Unlock()
			calls++
			if calls < 3 {
				return errors.New("503")
			}
			return nil
		})
		f := newFixture(u, s, retry.Policy{MaxAttempts: 5, Backoff: retry.Constant(time.Minute)}, 2)
		a := obs{"fixture_error": errText(f.err), "submit_error": errText(f.submit("e1", 1))}
		var waits []bool
		for i := 0; i < 2; i++ {
			waits = append(waits, within(unitLimit, func() bool { return f.clock.Pending() == 1 }))
			f.clock.Advance(time.Minute)
		}
		a["waits"] = waits
		a["drain_error"] = f.drain()
		a["record"] = record(f.st, "e1")
		return a
	},
	"dispatch_gives_up": func(u *unitState, req *request) obs {
		s := sink.Func(func(ctx context.Context, e event.Event) error {
			if e.ID == "perm" {
				return retry.Permanent(errors.New("400"))
			}
			if e.ID == "panic" {
				panic("sink bug")
			}
			return errors.New("503")
		})
		f := newFixture(u, s, retry.Policy{MaxAttempts: 2}, 2)
		a := obs{"fixture_error": errText(f.err)}
		var errs []any
		for i, id := range []string{"perm", "flaky", "panic"} {
			if err := f.submit(id, uint64(i+1)); err != nil {
				errs = append(errs, err.Error())
			}
		}
		a["submit_errors"] = errs
		a["drain_error"] = f.drain()
		recs := obs{}
		for _, id := range []string{"perm", "flaky", "panic"} {
			recs[id] = record(f.st, id)
		}
		a["records"] = recs
		f.mu.Lock()
		a["dead"] = append([]string{}, f.dead...)
		f.mu.Unlock()
		return a
	},
	"dispatch_close_cancels_retries": func(u *unitState, req *request) obs {
		s := sink.Func(func(ctx context.Context, e event.Event) error { return errors.New("503") })
		f := newFixture(u, s, retry.Policy{MaxAttempts: 3, Backoff: retry.Constant(time.Hour)}, 1)
		a := obs{"fixture_error": errText(f.err), "submit_error": errText(f.submit("e1", 1))}
		a["wait"] = within(unitLimit, func() bool { return f.clock.Pending() == 1 })
		a["close_error"] = closeIn(f.d.Close)
		a["drain_error"] = f.drain()
		a["record"] = record(f.st, "e1")
		err := f.d.Submit(event.Event{ID: "late"})
		a["late_error"] = errText(err)
		a["late_closed"] = errors.Is(err, dispatch.ErrClosed)
		return a
	},
	"dispatch_drain_honours_context": func(u *unitState, req *request) obs {
		release := make(chan struct{})
		var once sync.Once
		open := func() { once.Do(func() { close(release) }) }
		u.onExit(func() any { open(); return nil })
		s := sink.Func(func(ctx context.Context, e event.Event) error { <-release; return nil })
		f := newFixture(u, s, retry.Policy{}, 1)
		a := obs{"fixture_error": errText(f.err), "submit_error": errText(f.submit("e1", 1))}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		ch := make(chan error, 1)
		go func() { ch <- f.d.Drain(ctx) }()
		select {
		case err := <-ch:
			a["short_drain"] = obs{"done": true, "error": errText(err), "deadline": errors.Is(err, context.DeadlineExceeded)}
		case <-time.After(unitLimit):
			a["short_drain"] = obs{"done": false}
		}
		open()
		a["drain_error"] = f.drain()
		return a
	},

	// internal/event
	"event_validate": func(u *unitState, req *request) obs {
		ok := event.Event{Type: "order.paid", Key: "order-1", Payload: []byte(`{}`), Headers: map[string]string{"X-Tenant": "a"}}
		bad := []event.Event{
			{},
			{Type: "Order.Paid"},
			{Type: "order.paid", Key: " k"},
			{Type: "order.paid", Key: strings.Repeat("k", event.MaxKeyLen+1)},
			{Type: "order.paid", Headers: map[string]string{"Tenant": "a"}},
			{Type: "order.paid", Payload: make([]byte, event.MaxPayload+1)},
		}
		var got []obs
		for _, e := range bad {
			err := event.Validate(e)
			got = append(got, obs{"error": errText(err), "invalid": errors.Is(err, event.ErrInvalid)})
		}
		return obs{"valid_error": errText(event.Validate(ok)), "bad": got}
	},
	"event_clone_shares_nothing": func(u *unitState, req *request) obs {
		e := event.Event{Type: "a", Payload: []byte("x"), Headers: map[string]string{"X-A": "1"}}
		c := e.Clone()
		c.Payload[0] = 'y'
		c.Headers["X-A"] = "2"
		return obs{"payload": string(e.Payload), "header": e.Headers["X-A"]}
	},
	"event_ids": func(u *unitState, req *request) obs {
		g := event.NewIDs("")
		a, b := g.Next(), g.Next()
		return obs{"ids": []string{a, b}}
	},

	// internal/logx
	"logx_logfmt": func(u *unitState, req *request) obs {
		var sb strings.Builder
		l := logx.New(&sb, logx.Info)
		l.Now = func() time.Time { return time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC) }
		l.Debug("hidden", nil)
		l.Warn("retrying", map[string]any{"id": "evt-1", "attempt": 2})
		text := sb.String()
		var nilLogger *logx.Logger
		nilLogger.Error("nothing", nil)
		_, err := logx.ParseLevel("WARN")
		return obs{"text": text, "parse_warn_error": errText(err)}
	},

	// internal/metrics
	"metrics_registry_text": func(u *unitState, req *request) obs {
		r := metrics.NewRegistry()
		r.Counter("relay_b_total", "b").Add(3)
		r.Gauge("relay_a", "a").Set(-1)
		same := r.Counter("relay_b_total", "") == r.Counter("relay_b_total", "")
		var sb strings.Builder
		err := r.WriteText(&sb)
		return obs{"same_counter": same, "write_error": errText(err), "text": sb.String()}
	},
	"metrics_nil_registry": func(u *unitState, req *request) obs {
		var r *metrics.Registry
		r.Counter("x", "").Inc()
		r.Gauge("y", "").Set(1)
		return obs{"returned": true}
	},

	// internal/queue
	"queue_fifo_order": func(u *unitState, req *request) obs {
		q := queue.NewFIFO()
		var errs []any
		for _, s := range []uint64{3, 1, 2} {
			if err := q.Push(queue.Item{Event: event.Event{Seq: s}, Attempt: 1}); err != nil {
				errs = append(errs, err.Error())
			}
		}
		got, perr := drainQueue(q)
		return obs{"push_errors": errs, "got": got, "pop_error": perr}
	},
	"queue_byseq_order": func(u *unitState, req *request) obs {
		q := queue.NewBySeq()
		for _, s := range []uint64{3, 1, 2} {
			_ = q.Push(queue.Item{Event: event.Event{Seq: s}, Attempt: 1})
		}
		got, perr := drainQueue(q)
		return obs{"got": got, "pop_error": perr}
	},
	"queue_pop_waits_and_close": func(u *unitState, req *request) obs {
		out := obs{}
		for name, q := range map[string]queue.Queue{"fifo": queue.NewFIFO(), "byseq": queue.NewBySeq()} {
			a := obs{}
			got := make(chan error, 1)
			go func() {
				_, err := q.Pop(context.Background())
				got <- err
			}()
			_ = q.Push(queue.Item{Event: event.Event{Seq: 1}, Attempt: 1})
			select {
			case err := <-got:
				a["waiting_pop"] = obs{"done": true, "error": errText(err)}
			case <-time.After(unitLimit):
				a["waiting_pop"] = obs{"done": false}
			}
			q.Close()
			popped := make(chan error, 1)
			go func() {
				_, err := q.Pop(context.Background())
				popped <- err
			}()
			select {
			case err := <-popped:
				a["pop_after_close"] = obs{"done": true, "error": errText(err), "closed": errors.Is(err, queue.ErrClosed)}
			case <-time.After(unitLimit):
				a["pop_after_close"] = obs{"done": false}
			}
			err := q.Push(queue.Item{Event: event.Event{Seq: 2}, Attempt: 1})
			a["push_after_close"] = obs{"error": errText(err), "closed": errors.Is(err, queue.ErrClosed)}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
			timed := make(chan struct{})
			go func() { _, _ = q.Pop(ctx); close(timed) }()
			select {
			case <-timed:
				a["pop_with_deadline_returned"] = true
			case <-time.After(unitLimit):
				a["pop_with_deadline_returned"] = false
			}
			cancel()
			out[name] = a
		}
		return out
	},

	// internal/ratelimit
	"ratelimit_per_key": func(u *unitState, req *request) obs {
		now := time.Unix(100, 0)
		var mu sync.Mutex
		l := &ratelimit.Limiter{Rate: 1, Burst: 2, Now: func() time.Time { mu.Lock(); defer mu.Unlock(); return now }}
		first := []bool{l.Allow("a"), l.Allow("a"), l.Allow("a"), l.Allow("b")}
		mu.Lock()
		now = now.Add(time.Second)
		mu.Unlock()
		refill := []bool{l.Allow("a"), l.Allow("a")}
		var unlimited *ratelimit.Limiter
		return obs{"first": first, "after_a_second": refill, "nil_allows": unlimited.Allow("x")}
	},

	// internal/relay
	"relay_publish_assigns_id_and_seq": func(u *unitState, req *request) obs {
		mem := sink.NewMemory(nil)
		svc, err := relay.New(relay.Options{Sink: mem, IDPrefix: "ord"})
		if err != nil {
			return obs{"new_error": err.Error()}
		}
		u.onExit(func() any { return closeIn(svc.Close) })
		var rcs []obs
		for i := 1; i <= 3; i++ {
			rcs = append(rcs, receipt(svc.Publish(event.Event{Key: "order-1", Type: "order.updated"})))
		}
		ctx, cancel := context.WithTimeout(context.Background(), unitLimit)
		defer cancel()
		a := obs{"new_error": nil, "receipts": rcs, "drain_error": errText(svc.Drain(ctx))}
		st := store.Delivered
		var ids []string
		for _, r := range svc.List(&st) {
			ids = append(ids, r.ID)
		}
		a["delivered_ids"] = ids
		a["sink_events"] = len(mem.Events())
		return a
	},
	"relay_publish_refuses": func(u *unitState, req *request) obs {
		svc, err := relay.New(relay.Options{Sink: sink.NewMemory(nil)})
		if err != nil {
			return obs{"new_error": err.Error()}
		}
		_, err = svc.Publish(event.Event{})
		a := obs{"new_error": nil, "invalid": obs{"error": errText(err), "is_invalid": errors.Is(err, event.ErrInvalid)}}
		a["close_error"] = closeIn(svc.Close)
		_, err = svc.Publish(event.Event{Type: "a"})
		a["after_close"] = obs{"error": errText(err), "is_closed": errors.Is(err, relay.ErrClosed)}
		_, err = relay.New(relay.Options{})
		a["no_sink_error"] = errText(err)
		return a
	},

	// internal/retry
	"retry_policy_stops_at_max_attempts": func(u *unitState, req *request) obs {
		p := retry.Policy{MaxAttempts: 3, Backoff: retry.Constant(time.Second)}
		boom := errors.New("boom")
		var out []obs
		for attempt := 1; attempt <= 4; attempt++ {
			d, ok := p.Next(attempt, boom)
			out = append(out, obs{"attempt": attempt, "retry": ok, "delay_ns": int64(d)})
		}
		return obs{"next": out}
	},
	"retry_permanent_is_not_retried": func(u *unitState, req *request) obs {
		p := retry.Policy{MaxAttempts: 10}
		_, perm := p.Next(1, retry.Permanent(errors.New("400")))
		_, success := p.Next(1, nil)
		return obs{"permanent_retried": perm, "success_retried": success}
	},
	"retry_exponential": func(u *unitState, req *request) obs {
		e := retry.Exponential{Base: 100 * time.Millisecond, Max: time.Second}
		var out []int64
		for i := 1; i <= 6; i++ {
			out = append(out, int64(e.Delay(i)))
		}
		return obs{"delays_ns": out}
	},
	"retry_jitter_stays_in_range": func(u *unitState, req *request) obs {
		j := retry.NewJitter(retry.Constant(time.Second), 0.2, 1)
		var out []int64
		for i := 0; i < 100; i++ {
			out = append(out, int64(j.Delay(1)))
		}
		return obs{"delays_ns": out}
	},

	// internal/sink
	"sink_http_statuses": func(u *unitState, req *request) obs {
		var mu sync.Mutex
		status := http.StatusOK
		var seen http.Header
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			seen = r.Header.Clone()
			code := status
			mu.Unlock()
			w.WriteHeader(code)
		}))
		defer srv.Close()
		s := &sink.HTTP{URL: srv.URL}
		e := event.Event{ID: "evt-1", Key: "k", Type: "a.b", Seq: 7, Headers: map[string]string{"X-Tenant": "t"}}
		a := obs{}
		err := s.Deliver(context.Background(), e)
		mu.Lock()
		a["ok"] = obs{"error": errText(err), "seq": seen.Get("X-Relay-Seq"), "key": seen.Get("X-Relay-Key"), "tenant": seen.Get("X-Tenant")}
		status = http.StatusServiceUnavailable
		mu.Unlock()
		err = s.Deliver(context.Background(), e)
		a["503"] = obs{"error": errText(err), "permanent": retry.IsPermanent(err)}
		mu.Lock()
		status = http.StatusBadRequest
		mu.Unlock()
		err = s.Deliver(context.Background(), e)
		a["400"] = obs{"error": errText(err), "permanent": retry.IsPermanent(err)}
		return a
	},
	"sink_fanout_and_filter": func(u *unitState, req *request) obs {
		a, b := sink.NewMemory(nil), sink.NewMemory(func(event.Event) error { return errors.New("down") })
		f := sink.Fanout{a, sink.Filter{Inner: b, Types: map[string]bool{"x": true}}}
		errY := f.Deliver(context.Background(), event.Event{Type: "y"})
		errX := f.Deliver(context.Background(), event.Event{Type: "x"})
		return obs{"error_y": errText(errY), "error_x": errText(errX), "a": len(a.Events()), "b": len(b.Events())}
	},

	// internal/store
	"store_memory_lifecycle": func(u *unitState, req *request) obs {
		m := store.NewMemory(nil)
		var errs []any
		for i, id := range []string{"b", "a"} {
			errs = append(errs, errText(m.Accept(event.Event{ID: id, Seq: uint64(i + 1)})))
		}
		a := obs{"accept_errors": errs}
		a["attempted_error"] = errText(m.Attempted("a", 1, errors.New("503")))
		a["delivered_error"] = errText(m.Delivered("a", 2))
		a["dead_again_error"] = errText(m.Dead("a", 3, nil))
		a["a"] = record(m, "a")
		_, err := m.Get("zz")
		a["zz"] = obs{"error": errText(err), "not_found": errors.Is(err, store.ErrNotFound)}
		var all, pending []string
		for _, r := range m.List(nil) {
			all = append(all, r.ID)
		}
		st := store.Pending
		for _, r := range m.List(&st) {
			pending = append(pending, r.ID)
		}
		a["all"] = all
		a["pending"] = pending
		return a
	},
	"store_journal_lines": func(u *unitState, req *request) obs {
		var buf bytes.Buffer
		j := &store.Journal{Inner: store.NewMemory(nil), W: &buf}
		_ = j.Accept(event.Event{ID: "x", Key: "k", Seq: 1})
		_ = j.Dead("x", 1, errors.New("400"))
		return obs{"text": buf.String()}
	},
	"store_parse_state": func(u *unitState, req *request) obs {
		var out []obs
		for _, s := range []store.State{store.Pending, store.Delivered, store.Dead} {
			got, err := store.ParseState(s.String())
			out = append(out, obs{"string": s.String(), "same": got == s, "error": errText(err)})
		}
		return obs{"states": out}
	},

	// internal/syncx
	"syncx_keyed_mutex_separates_keys": func(u *unitState, req *request) obs {
		var k syncx.KeyedMutex
		k.Lock("a")
		done := make(chan struct{})
		go func() {
			k.Lock("b")
			k.Unlock("b")
			close(done)
		}()
		finished := false
		select {
		case <-done:
			finished = true
		case <-time.After(unitLimit):
		}
		k.Unlock("a")
		return obs{"other_key_locked": finished, "len": k.Len()}
	},
	"syncx_keyed_mutex_excludes": func(u *unitState, req *request) obs {
		var k syncx.KeyedMutex
		var wg sync.WaitGroup
		n := 0
		for i := 0; i < 50; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				k.Lock("x")
				n++
				k.Unlock("x")
			}()
		}
		wg.Wait()
		return obs{"n": n}
	},
	"syncx_pending_wait": func(u *unitState, req *request) obs {
		var p syncx.Pending
		a := obs{"idle_wait_error": errText(p.Wait(context.Background()))}
		p.Add(2)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		a["busy_wait_error"] = errText(p.Wait(ctx))
		p.Done()
		p.Done()
		ctx2, cancel2 := context.WithTimeout(context.Background(), unitLimit)
		defer cancel2()
		a["done_wait_error"] = errText(p.Wait(ctx2))
		return a
	},
}

// internal/api: the server of TestPublishStatusDrain and TestPublishRefusals; the runner
// sends the requests (http) and reads the answers.
func (u *unitState) api(req *request) (obs, error) {
	switch req.Op {
	case "api_start":
		if u.srv != nil {
			return nil, errors.New("the server runs already")
		}
		u.mem = sink.NewMemory(nil)
		svc, err := relay.New(relay.Options{Sink: u.mem})
		if err != nil {
			return obs{"error": err.Error()}, nil
		}
		u.svc = svc
		now := time.Unix(0, 0)
		u.srv = httptest.NewServer((&api.Server{Svc: svc, Limiter: &ratelimit.Limiter{Rate: 1, Burst: 3,
			Now: func() time.Time { return now }}}).Handler())
		srv := u.srv
		u.onExit(func() any { srv.Close(); return closeIn(svc.Close) })
		return obs{"error": nil}, nil
	case "http":
		if u.srv == nil {
			return nil, errors.New("no server: api_start first")
		}
		client := &http.Client{Timeout: unitLimit}
		var resp *http.Response
		var err error
		switch req.Method {
		case "GET":
			resp, err = client.Get(u.srv.URL + req.Path)
		case "POST":
			resp, err = client.Post(u.srv.URL+req.Path, "application/json", strings.NewReader(req.Body))
		default:
			return nil, fmt.Errorf("method %q", req.Method)
		}
		if err != nil {
			return obs{"error": err.Error()}, nil
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		return obs{"error": errText(err), "status": resp.StatusCode, "body": string(body)}, nil
	case "api_sink_count":
		if u.mem == nil {
			return nil, errors.New("no server: api_start first")
		}
		return obs{"events": len(u.mem.Events())}, nil
	}
	return nil, fmt.Errorf("unknown operation %q", req.Op)
}

// The dispatcher fixture of internal/dispatch's tests.
type fixture struct {
	d     *dispatch.Dispatcher
	st    *store.Memory
	mu    sync.Mutex
	dead  []string
	clock *clock.Fake
	err   error
}

func newFixture(u *unitState, s sink.Sink, p retry.Policy, workers int) *fixture {
	f := &fixture{st: store.NewMemory(nil), clock: clock.NewFake(time.Unix(0, 0))}
	d, err := dispatch.New(dispatch.Config{Workers: workers, Sink: s, Store: f.st, Retry: p, Clock: f.clock,
		DeadLetter: func(e event.Event, attempts int, err error) {
			f.mu.Lock()
			f.dead = append(f.dead, e.ID)
			f.mu.Unlock()
		}})
	if err != nil {
		f.err = err
		return f
	}
	f.d = d
	d.Start()
	u.onExit(func() any { return closeIn(d.Close) })
	return f
}

func (f *fixture) submit(id string, seq uint64) error {
	if f.d == nil {
		return f.err
	}
	e := event.Event{ID: id, Type: "t", Seq: seq}
	if err := f.st.Accept(e); err != nil {
		return err
	}
	return f.d.Submit(e)
}

func (f *fixture) drain() any {
	if f.d == nil {
		return errText(f.err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), unitLimit)
	defer cancel()
	return errText(f.d.Drain(ctx))
}

func record(st store.Store, id string) obs {
	r, err := st.Get(id)
	if err != nil {
		return obs{"error": err.Error()}
	}
	return obs{"error": nil, "state": r.State.String(), "is_delivered": r.State == store.Delivered,
		"is_dead": r.State == store.Dead, "is_pending": r.State == store.Pending, "attempts": r.Attempts,
		"last_error": r.LastError}
}

// drainQueue pops while Len() says there is something (at most 100 times).
func drainQueue(q queue.Queue) ([]uint64, any) {
	var got []uint64
	for i := 0; q.Len() > 0 && i < 100; i++ {
		ch := make(chan queue.Item, 1)
		errs := make(chan error, 1)
		go func() {
			it, err := q.Pop(context.Background())
			if err != nil {
				errs <- err
				return
			}
			ch <- it
		}()
		select {
		case it := <-ch:
			got = append(got, it.Event.Seq)
		case err := <-errs:
			return got, err.Error()
		case <-time.After(unitLimit):
			return got, "Pop did not return"
		}
	}
	return got, nil
}
