package nabhidden

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"sync"
	"testing"
	"time"

	"example.com/relay/internal/clock"
	"example.com/relay/internal/event"
	"example.com/relay/internal/relay"
	"example.com/relay/internal/retry"
	"example.com/relay/internal/store"
)

func newMemStore() store.Store { return store.NewMemory(nil) }

func drainRecordsOutcomes(t *testing.T, ordering relay.Ordering) {
	s := newSink(ordering == relay.PerKey, func(e event.Event, n int) error {
		if e.Type == "rejected" {
			return retry.Permanent(errors.New("400 bad request"))
		}
		return nil
	})
	st := slowStore{Store: newMemStore(), final: 3 * time.Millisecond}
	svc := newService(t, relay.Options{Workers: 4, Sink: s, Store: st, Ordering: ordering})
	var ids []string
	for i := 0; i < 24; i++ {
		typ := "ok"
		if i%5 == 4 {
			typ = "rejected"
		}
		ids = append(ids, publish(t, svc, fmt.Sprintf("k%d", i%3), typ).ID)
	}
	drain(t, svc)
	allFinal(t, svc, ids)
	if n := svc.Pending(); n != 0 {
		t.Fatalf("Pending() = %d after Drain", n)
	}
}

func TestDrainWaitsForRecordedOutcomesUnordered(t *testing.T) {
	drainRecordsOutcomes(t, relay.Unordered)
}

func TestDrainWaitsForRecordedOutcomesPerKey(t *testing.T) {
	drainRecordsOutcomes(t, relay.PerKey)
}

// gateStore holds the final write (Delivered or Dead) of one event until open is closed,
// and closes entered when that write begins.
type gateStore struct {
	store.Store
	id      string
	entered chan struct{}
	open    chan struct{}
}

func (g *gateStore) wait(id string) {
	if id == g.id {
		close(g.entered)
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

// drainWaitsForTheStoreWrite holds the store write of the last event's outcome: Drain
// must not return while it is held, however long that is (a second here), and returns
// nil once it is done.
func drainWaitsForTheStoreWrite(t *testing.T, ordering relay.Ordering, fails bool) {
	s := newSink(ordering == relay.PerKey, func(e event.Event, n int) error {
		if e.Type == "rejected" {
			return retry.Permanent(errors.New("409 conflict"))
		}
		return nil
	})
	gs := &gateStore{Store: newMemStore(), id: "evt-000004", entered: make(chan struct{}), open: make(chan struct{})}
	defer func() {
		select {
		case <-gs.open:
		default:
			close(gs.open)
		}
	}()
	svc := newService(t, relay.Options{Workers: 2, Sink: s, Store: gs, Ordering: ordering})
	var ids []string
	for i := 0; i < 3; i++ {
		ids = append(ids, publish(t, svc, "acct-1", "ok").ID)
	}
	last := "ok"
	if fails {
		last = "rejected"
	}
	ids = append(ids, publish(t, svc, "acct-1", last).ID)
	select {
	case <-gs.entered:
	case <-time.After(waitLimit):
		t.Fatalf("the outcome of %s was never written", gs.id)
	}
	result := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		result <- svc.Drain(ctx)
	}()
	select {
	case err := <-result:
		t.Fatalf("Drain returned (%v) while the outcome of %s was still being written to the store", err, gs.id)
	case <-time.After(time.Second):
	}
	close(gs.open)
	if err := <-result; err != nil {
		t.Fatalf("Drain: %v", err)
	}
	allFinal(t, svc, ids)
}

func TestDrainWaitsForTheStoreWriteUnordered(t *testing.T) {
	drainWaitsForTheStoreWrite(t, relay.Unordered, false)
}

func TestDrainWaitsForTheStoreWritePerKey(t *testing.T) {
	drainWaitsForTheStoreWrite(t, relay.PerKey, true)
}

func TestDrainCountsEventsWaitingBehindTheirKey(t *testing.T) {
	s := newSink(true, nil)
	st := slowStore{Store: newMemStore(), final: 2 * time.Millisecond}
	svc := newService(t, relay.Options{Workers: 2, Sink: s, Store: st, Ordering: relay.PerKey})
	release := s.hold("evt-000001")
	defer release()
	var ids []string
	for i := 0; i < 4; i++ {
		ids = append(ids, publish(t, svc, "batch-1", "step").ID)
	}
	eventually(t, "first event reaches the sink", func() bool { return s.started(ids[0]) })
	result := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		result <- svc.Drain(ctx)
	}()
	time.Sleep(10 * time.Millisecond)
	release()
	if err := <-result; err != nil {
		t.Fatalf("Drain: %v", err)
	}
	allFinal(t, svc, ids)
	s.noViolations(t)
}

func TestDrainTimesOutWhileAKeyHangs(t *testing.T) {
	s := newSink(true, nil)
	svc := newService(t, relay.Options{Workers: 2, Sink: s, Ordering: relay.PerKey})
	release := s.hold("evt-000001")
	defer release()
	publish(t, svc, "k", "a")
	publish(t, svc, "k", "b")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	if err := svc.Drain(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Drain with a hanging key: %v, want context.DeadlineExceeded", err)
	}
	release()
	drain(t, svc)
}

func TestCloseLeavesNothingPending(t *testing.T) {
	s := newSink(true, nil)
	svc, err := relay.New(relay.Options{Workers: 2, Sink: s, Ordering: relay.PerKey})
	if err != nil {
		t.Fatal(err)
	}
	release := s.hold("evt-000001")
	defer release()
	var ids []string
	for i := 0; i < 5; i++ {
		ids = append(ids, publish(t, svc, "k", "step").ID)
	}
	ids = append(ids, publish(t, svc, "other", "step").ID)
	eventually(t, "first event reaches the sink", func() bool { return s.started(ids[0]) })
	closed := make(chan error, 1)
	go func() { closed <- svc.Close() }()
	eventually(t, "Publish refused after Close", func() bool {
		rc, err := svc.Publish(event.Event{Type: "probe"})
		if err == nil {
			ids = append(ids, rc.ID)
		}
		return errors.Is(err, relay.ErrClosed)
	})
	time.Sleep(20 * time.Millisecond)
	release()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatalf("Close: %v", err)
		}
	case <-time.After(waitLimit):
		t.Fatal("Close did not return")
	}
	allFinal(t, svc, ids)
	s.noViolations(t)
}

// Close while events are queued behind one in progress: the workers deliver them; the
// last one fails, is not retried any more (the relay is closing) and must be dead,
// recorded by a store that is slow to record it, by the time Close returns.
func TestCloseLeavesNothingPendingUnordered(t *testing.T) {
	s := newSink(false, func(e event.Event, n int) error {
		if e.Type == "fails" {
			return errUnavailable
		}
		return nil
	})
	st := slowStore{Store: newMemStore(), dead: 300 * time.Millisecond}
	var dl deadLog
	svc, err := relay.New(relay.Options{Workers: 1, Sink: s, Store: st, DeadLetter: dl.handler(),
		Retry: retry.Policy{MaxAttempts: 5}})
	if err != nil {
		t.Fatal(err)
	}
	release := s.hold("evt-000001")
	defer release()
	var ids []string
	for i := 0; i < 2; i++ {
		ids = append(ids, publish(t, svc, fmt.Sprintf("order-%d", i), "ok").ID)
	}
	failing := publish(t, svc, "order-7", "fails").ID
	ids = append(ids, failing)
	eventually(t, "first event reaches the sink", func() bool { return s.started(ids[0]) })
	closed := make(chan error, 1)
	go func() { closed <- svc.Close() }()
	// A probe accepted before Close took effect is delivered at once (only Dead is slow)
	// after the failing event, and must be final too.
	eventually(t, "Publish refused after Close", func() bool {
		rc, err := svc.Publish(event.Event{Type: "probe"})
		if err == nil {
			ids = append(ids, rc.ID)
		}
		return errors.Is(err, relay.ErrClosed)
	})
	time.Sleep(20 * time.Millisecond)
	release()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatalf("Close: %v", err)
		}
	case <-time.After(waitLimit):
		t.Fatal("Close did not return")
	}
	allFinal(t, svc, ids)
	if r := record(t, svc, failing); r.State != store.Dead {
		t.Fatalf("the event that failed during Close: %s, want dead", r.State)
	}
	if got := dl.list(); len(got) != 1 || got[0] != failing {
		t.Fatalf("dead letters %v, want [%s]", got, failing)
	}
}

// Close with PerKey: a key whose current event hangs, with events waiting behind it; a
// key whose current event waits for a retry on the clock, with events behind it; a key
// with nothing waiting. Once Close returns, every accepted event is final.
func TestCloseLeavesNothingPendingPerKeyWithRetries(t *testing.T) {
	fc := clock.NewFake(time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC))
	s := newSink(true, func(e event.Event, n int) error {
		if e.Type == "fails.once" && n == 1 {
			return errUnavailable
		}
		return nil
	})
	svc, err := relay.New(relay.Options{Workers: 2, Sink: s, Clock: fc, Ordering: relay.PerKey,
		Retry: retry.Policy{MaxAttempts: 3, Backoff: retry.Constant(time.Hour)}})
	if err != nil {
		t.Fatal(err)
	}
	release := s.hold("evt-000001")
	defer release()
	var ids []string
	for i := 0; i < 3; i++ {
		ids = append(ids, publish(t, svc, "hangs", "step").ID)
	}
	eventually(t, "first event reaches the sink", func() bool { return s.started(ids[0]) })
	ids = append(ids, publish(t, svc, "retries", "fails.once").ID)
	eventually(t, "a retry scheduled on the clock", func() bool { return fc.Pending() == 1 })
	for i := 0; i < 3; i++ {
		ids = append(ids, publish(t, svc, "retries", "step").ID)
	}
	ids = append(ids, publish(t, svc, "alone", "step").ID)
	closed := make(chan error, 1)
	go func() { closed <- svc.Close() }()
	eventually(t, "Publish refused after Close", func() bool {
		rc, err := svc.Publish(event.Event{Type: "probe"})
		if err == nil {
			ids = append(ids, rc.ID)
		}
		return errors.Is(err, relay.ErrClosed)
	})
	time.Sleep(20 * time.Millisecond)
	release()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatalf("Close: %v", err)
		}
	case <-time.After(waitLimit):
		t.Fatal("Close did not return")
	}
	allFinal(t, svc, ids)
	s.noViolations(t)
}

func TestPerKeyStressWithFailures(t *testing.T) {
	var mu sync.Mutex
	rnd := rand.New(rand.NewSource(42))
	s := newSink(true, func(e event.Event, n int) error {
		mu.Lock()
		r := rnd.Intn(100)
		mu.Unlock()
		switch {
		case r < 3:
			return retry.Permanent(errors.New("410 gone"))
		case r < 30:
			return errUnavailable
		}
		return nil
	})
	s.yield = true
	var dl deadLog
	svc := newService(t, relay.Options{Workers: 6, Sink: s, Ordering: relay.PerKey, DeadLetter: dl.handler(),
		Retry: retry.Policy{MaxAttempts: 3}})
	byKey := map[string][]relay.Receipt{}
	var all []relay.Receipt
	for i := 0; i < 12; i++ {
		for k := 0; k < 30; k++ {
			key := fmt.Sprintf("cust-%02d", k)
			rc := publish(t, svc, key, "update")
			byKey[key] = append(byKey[key], rc)
			all = append(all, rc)
		}
		for j := 0; j < 3; j++ {
			all = append(all, publish(t, svc, "", "ping"))
		}
	}
	drain(t, svc)
	s.noViolations(t)
	s.atMost(t, 6)
	s.mu.Lock()
	calls := map[string]int{}
	lastErr := map[string]error{}
	for _, c := range s.ends {
		calls[c.ID]++
		lastErr[c.ID] = c.Err
	}
	s.mu.Unlock()
	deadSet := map[string]bool{}
	for _, id := range dl.list() {
		if deadSet[id] {
			t.Fatalf("%s dead-lettered twice", id)
		}
		deadSet[id] = true
	}
	for _, rc := range all {
		r := record(t, svc, rc.ID)
		wantState := "delivered"
		if lastErr[rc.ID] != nil {
			wantState = "dead"
		}
		if r.State.String() != wantState || r.Attempts != calls[rc.ID] || deadSet[rc.ID] != (wantState == "dead") {
			t.Fatalf("%s: record %s after %d attempts (dead-lettered %v); the sink saw %d calls, last error %v",
				rc.ID, r.State, r.Attempts, deadSet[rc.ID], calls[rc.ID], lastErr[rc.ID])
		}
	}
	for key, rcs := range byKey {
		got := s.keyStarts(key)
		var firsts []string
		for _, c := range got {
			if len(c) > 2 && c[len(c)-2:] == "#1" {
				firsts = append(firsts, c)
			}
		}
		if want := seqs(rcs); !equal(firsts, want) {
			t.Fatalf("key %s: first attempts %v, want %v", key, firsts, want)
		}
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
