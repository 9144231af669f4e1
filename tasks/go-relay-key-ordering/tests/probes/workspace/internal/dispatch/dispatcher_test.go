package dispatch

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"example.com/relay/internal/clock"
	"example.com/relay/internal/event"
	"example.com/relay/internal/retry"
	"example.com/relay/internal/sink"
	"example.com/relay/internal/store"
)

type fixture struct {
	d     *Dispatcher
	st    *store.Memory
	mu    sync.Mutex
	dead  []string
	clock *clock.Fake
}

func newFixture(t *testing.T, s sink.Sink, p retry.Policy, workers int) *fixture {
	t.Helper()
	f := &fixture{st: store.NewMemory(nil), clock: clock.NewFake(time.Unix(0, 0))}
	d, err := New(Config{Workers: workers, Sink: s, Store: f.st, Retry: p, Clock: f.clock,
		DeadLetter: func(e event.Event, attempts int, err error) {
			f.mu.Lock()
			f.dead = append(f.dead, e.ID)
			f.mu.Unlock()
		}})
	if err != nil {
		t.Fatal(err)
	}
	f.d = d
	d.Start()
	t.Cleanup(func() { _ = d.Close() })
	return f
}

func (f *fixture) submit(t *testing.T, id string, seq uint64) {
	t.Helper()
	e := event.Event{ID: id, Type: "t", Seq: seq}
	if err := f.st.Accept(e); err != nil {
		t.Fatal(err)
	}
	if err := f.d.Submit(e); err != nil {
		t.Fatal(err)
	}
}

func drain(t *testing.T, d *Dispatcher) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := d.Drain(ctx); err != nil {
		t.Fatalf("drain: %v", err)
	}
}

func TestDeliversEverything(t *testing.T) {
	mem := sink.NewMemory(nil)
	f := newFixture(t, mem, retry.Policy{}, 4)
	for i := 1; i <= 50; i++ {
		f.submit(t, "e"+string(rune('A'+i%26))+string(rune('a'+i/26)), uint64(i))
	}
	drain(t, f.d)
	if n := len(mem.Events()); n != 50 {
		t.Fatalf("delivered %d of 50", n)
	}
}

func TestRetriesAfterBackoff(t *testing.T) {
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
	f := newFixture(t, s, retry.Policy{MaxAttempts: 5, Backoff: retry.Constant(time.Minute)}, 2)
	f.submit(t, "e1", 1)
	for i := 0; i < 2; i++ {
		waitFor(t, func() bool { return f.clock.Pending() == 1 })
		f.clock.Advance(time.Minute)
	}
	drain(t, f.d)
	r, _ := f.st.Get("e1")
	if r.State != store.Delivered || r.Attempts != 3 || r.LastError != "503" {
		t.Fatalf("%+v", r)
	}
}

func TestGivesUp(t *testing.T) {
	s := sink.Func(func(ctx context.Context, e event.Event) error {
		if e.ID == "perm" {
			return retry.Permanent(errors.New("400"))
		}
		if e.ID == "panic" {
			panic("sink bug")
		}
		return errors.New("503")
	})
	f := newFixture(t, s, retry.Policy{MaxAttempts: 2}, 2)
	f.submit(t, "perm", 1)
	f.submit(t, "flaky", 2)
	f.submit(t, "panic", 3)
	drain(t, f.d)
	want := map[string]int{"perm": 1, "flaky": 2, "panic": 2}
	for id, attempts := range want {
		r, _ := f.st.Get(id)
		if r.State != store.Dead || r.Attempts != attempts {
			t.Errorf("%s: %+v", id, r)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.dead) != 3 {
		t.Fatalf("dead letters: %v", f.dead)
	}
}

func TestCloseCancelsRetries(t *testing.T) {
	s := sink.Func(func(ctx context.Context, e event.Event) error { return errors.New("503") })
	f := newFixture(t, s, retry.Policy{MaxAttempts: 3, Backoff: retry.Constant(time.Hour)}, 1)
	f.submit(t, "e1", 1)
	waitFor(t, func() bool { return f.clock.Pending() == 1 })
	if err := f.d.Close(); err != nil {
		t.Fatal(err)
	}
	drain(t, f.d)
	r, _ := f.st.Get("e1")
	if r.State != store.Dead {
		t.Fatalf("%+v", r)
	}
	if err := f.d.Submit(event.Event{ID: "late"}); !errors.Is(err, ErrClosed) {
		t.Fatalf("submit after close: %v", err)
	}
}

func TestDrainHonoursContext(t *testing.T) {
	release := make(chan struct{})
	s := sink.Func(func(ctx context.Context, e event.Event) error { <-release; return nil })
	f := newFixture(t, s, retry.Policy{}, 1)
	f.submit(t, "e1", 1)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := f.d.Drain(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("drain: %v", err)
	}
	close(release)
	drain(t, f.d)
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 5s")
		}
		time.Sleep(time.Millisecond)
	}
}
