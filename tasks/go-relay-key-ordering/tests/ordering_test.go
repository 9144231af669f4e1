package nabhidden

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"example.com/relay/internal/clock"
	"example.com/relay/internal/event"
	"example.com/relay/internal/relay"
	"example.com/relay/internal/retry"
)

func TestPerKeyOrderWithManyWorkers(t *testing.T) {
	s := newSink(true, nil)
	s.yield = true
	svc := newService(t, relay.Options{Workers: 8, Sink: s, Ordering: relay.PerKey})
	byKey := map[string][]relay.Receipt{}
	for i := 0; i < 25; i++ {
		for k := 0; k < 12; k++ {
			key := fmt.Sprintf("order-%d", k)
			byKey[key] = append(byKey[key], publish(t, svc, key, "order.updated"))
		}
	}
	drain(t, svc)
	s.noViolations(t)
	s.atMost(t, 8)
	for key, rcs := range byKey {
		if got, want := s.keyStarts(key), seqs(rcs); !reflect.DeepEqual(got, want) {
			t.Fatalf("key %s: calls %v, want %v", key, got, want)
		}
	}
}

func TestPerKeyRetryKeepsItsPlace(t *testing.T) {
	var first string
	s := newSink(true, func(e event.Event, n int) error {
		if e.ID == first && n < 3 {
			return errUnavailable
		}
		return nil
	})
	svc := newService(t, relay.Options{Workers: 4, Sink: s, Ordering: relay.PerKey, Retry: retry.Policy{MaxAttempts: 4}})
	release := s.hold("evt-000001")
	first = "evt-000001"
	a1 := publish(t, svc, "order-1", "order.created")
	a2 := publish(t, svc, "order-1", "order.paid")
	a3 := publish(t, svc, "order-1", "order.shipped")
	b1 := publish(t, svc, "order-2", "order.created")
	eventually(t, "order-2 delivered while order-1's first event is held", func() bool { return s.succeeded(b1.ID) })
	release()
	drain(t, svc)
	s.noViolations(t)
	want := []string{fmt.Sprintf("%d#1", a1.Seq), fmt.Sprintf("%d#2", a1.Seq), fmt.Sprintf("%d#3", a1.Seq),
		fmt.Sprintf("%d#1", a2.Seq), fmt.Sprintf("%d#1", a3.Seq)}
	if got := s.keyStarts("order-1"); !reflect.DeepEqual(got, want) {
		t.Fatalf("order-1 calls (seq#attempt) %v, want %v", got, want)
	}
	if r := record(t, svc, a1.ID); r.State.String() != "delivered" || r.Attempts != 3 {
		t.Fatalf("first event: %+v", r)
	}
}

func TestPerKeyRetryBackoffHoldsOnlyItsKey(t *testing.T) {
	fc := clock.NewFake(time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC))
	var failOnce string
	s := newSink(true, func(e event.Event, n int) error {
		if e.ID == failOnce && n == 1 {
			return errUnavailable
		}
		return nil
	})
	svc := newService(t, relay.Options{Workers: 2, Sink: s, Clock: fc, Ordering: relay.PerKey,
		Retry: retry.Policy{MaxAttempts: 3, Backoff: retry.Constant(time.Minute)}})
	failOnce = "evt-000001"
	a1 := publish(t, svc, "acct-9", "invoice.created")
	eventually(t, "a retry scheduled on the clock", func() bool { return fc.Pending() == 1 })
	a2 := publish(t, svc, "acct-9", "invoice.paid")
	a3 := publish(t, svc, "acct-9", "invoice.closed")
	var others []string
	for i := 0; i < 10; i++ {
		others = append(others, publish(t, svc, fmt.Sprintf("acct-%d", i%5), "invoice.created").ID)
	}
	eventually(t, "other keys delivered during acct-9's backoff", func() bool { return s.succeeded(others...) })
	if s.started(a2.ID) || s.started(a3.ID) {
		t.Fatalf("acct-9's later events were attempted during the first one's backoff: %v", s.keyStarts("acct-9"))
	}
	fc.Advance(time.Minute)
	drain(t, svc)
	s.noViolations(t)
	want := []string{fmt.Sprintf("%d#1", a1.Seq), fmt.Sprintf("%d#2", a1.Seq), fmt.Sprintf("%d#1", a2.Seq), fmt.Sprintf("%d#1", a3.Seq)}
	if got := s.keyStarts("acct-9"); !reflect.DeepEqual(got, want) {
		t.Fatalf("acct-9 calls %v, want %v", got, want)
	}
}

func TestPerKeyGivingUpReleasesTheKey(t *testing.T) {
	s := newSink(true, func(e event.Event, n int) error {
		switch e.Type {
		case "always.fails":
			return errUnavailable
		case "rejected":
			return retry.Permanent(fmt.Errorf("422 unprocessable"))
		}
		return nil
	})
	var dl deadLog
	svc := newService(t, relay.Options{Workers: 3, Sink: s, Ordering: relay.PerKey, DeadLetter: dl.handler(),
		Retry: retry.Policy{MaxAttempts: 2}})
	a1 := publish(t, svc, "k", "always.fails")
	a2 := publish(t, svc, "k", "ok")
	a3 := publish(t, svc, "k", "rejected")
	a4 := publish(t, svc, "k", "ok")
	drain(t, svc)
	s.noViolations(t)
	want := []string{fmt.Sprintf("%d#1", a1.Seq), fmt.Sprintf("%d#2", a1.Seq), fmt.Sprintf("%d#1", a2.Seq),
		fmt.Sprintf("%d#1", a3.Seq), fmt.Sprintf("%d#1", a4.Seq)}
	if got := s.keyStarts("k"); !reflect.DeepEqual(got, want) {
		t.Fatalf("calls %v, want %v", got, want)
	}
	if got := dl.list(); !reflect.DeepEqual(got, []string{a1.ID, a3.ID}) {
		t.Fatalf("dead letters %v, want %v", got, []string{a1.ID, a3.ID})
	}
	for id, want := range map[string]string{a1.ID: "dead/2", a2.ID: "delivered/1", a3.ID: "dead/1", a4.ID: "delivered/1"} {
		r := record(t, svc, id)
		if got := fmt.Sprintf("%s/%d", r.State, r.Attempts); got != want {
			t.Errorf("%s: %s, want %s", id, got, want)
		}
	}
}

func TestPerKeyHeldKeyDoesNotHoldUpOthers(t *testing.T) {
	s := newSink(true, nil)
	svc := newService(t, relay.Options{Workers: 3, Sink: s, Ordering: relay.PerKey})
	release := s.hold("evt-000001")
	defer release()
	a1 := publish(t, svc, "tenant-a", "sync")
	eventually(t, "first event reaches the sink", func() bool { return s.started(a1.ID) })
	var waiting []relay.Receipt
	for i := 0; i < 9; i++ {
		waiting = append(waiting, publish(t, svc, "tenant-a", "sync"))
	}
	var others []string
	for i := 0; i < 30; i++ {
		others = append(others, publish(t, svc, fmt.Sprintf("tenant-%d", i%15), "sync").ID)
	}
	for i := 0; i < 5; i++ {
		others = append(others, publish(t, svc, "", "ping").ID)
	}
	eventually(t, "other keys delivered while tenant-a's first event hangs", func() bool { return s.succeeded(others...) })
	for _, rc := range waiting {
		if s.started(rc.ID) {
			t.Fatalf("%s attempted while an earlier tenant-a event was still being delivered", rc.ID)
		}
	}
	release()
	drain(t, svc)
	s.noViolations(t)
	s.atMost(t, 3)
	want := seqs(append([]relay.Receipt{a1}, waiting...))
	if got := s.keyStarts("tenant-a"); !reflect.DeepEqual(got, want) {
		t.Fatalf("tenant-a calls %v, want %v", got, want)
	}
}

func TestPerKeyEventsWithoutKeyStayConcurrent(t *testing.T) {
	s := newSink(true, nil)
	svc := newService(t, relay.Options{Workers: 3, Sink: s, Ordering: relay.PerKey})
	release := s.hold("evt-000001")
	defer release()
	first := publish(t, svc, "", "ping")
	eventually(t, "first keyless event reaches the sink", func() bool { return s.started(first.ID) })
	second := publish(t, svc, "", "ping")
	third := publish(t, svc, "", "ping")
	eventually(t, "keyless events delivered while another keyless event hangs", func() bool { return s.succeeded(second.ID, third.ID) })
	release()
	drain(t, svc)
}

func TestUnorderedIsStillTheDefault(t *testing.T) {
	s := newSink(false, nil)
	svc := newService(t, relay.Options{Workers: 3, Sink: s})
	release := s.hold("evt-000001")
	defer release()
	a1 := publish(t, svc, "order-1", "order.created")
	eventually(t, "first event reaches the sink", func() bool { return s.started(a1.ID) })
	a2 := publish(t, svc, "order-1", "order.paid")
	eventually(t, "same-key event delivered concurrently without PerKey", func() bool { return s.succeeded(a2.ID) })
	release()
	drain(t, svc)
}

func TestPerKeyConcurrentPublishersFollowSeq(t *testing.T) {
	s := newSink(true, nil)
	st := slowStore{Store: nil, accept: func(e event.Event) {
		if e.Seq%3 == 0 {
			time.Sleep(2 * time.Millisecond)
		}
	}}
	st.Store = newMemStore()
	svc := newService(t, relay.Options{Workers: 4, Sink: s, Store: st, Ordering: relay.PerKey})
	const goroutines, each = 8, 30
	got := make(chan relay.Receipt, goroutines*each)
	errs := make(chan error, goroutines)
	for g := 0; g < goroutines; g++ {
		go func() {
			for i := 0; i < each; i++ {
				rc, err := svc.Publish(event.Event{Key: "hot", Type: "tick"})
				if err != nil {
					errs <- err
					return
				}
				got <- rc
			}
			errs <- nil
		}()
	}
	for g := 0; g < goroutines; g++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	close(got)
	seen := map[uint64]bool{}
	for rc := range got {
		if seen[rc.Seq] {
			t.Fatalf("seq %d handed out twice", rc.Seq)
		}
		seen[rc.Seq] = true
		if r := record(t, svc, rc.ID); r.Seq != rc.Seq {
			t.Fatalf("%s: receipt seq %d, record seq %d", rc.ID, rc.Seq, r.Seq)
		}
	}
	drain(t, svc)
	s.noViolations(t)
	want := make([]string, 0, goroutines*each)
	for i := 1; i <= goroutines*each; i++ {
		if !seen[uint64(i)] {
			t.Fatalf("seq %d missing", i)
		}
		want = append(want, fmt.Sprintf("%d#1", i))
	}
	if got := s.keyStarts("hot"); !reflect.DeepEqual(got, want) {
		t.Fatalf("hot calls out of seq order: %v", got)
	}
}

func TestPerKeyWorkersStillBoundDeliveries(t *testing.T) {
	s := newSink(true, nil)
	svc := newService(t, relay.Options{Workers: 3, Sink: s, Ordering: relay.PerKey})
	var releases []func()
	for i := 1; i <= 5; i++ {
		releases = append(releases, s.hold(fmt.Sprintf("evt-%06d", i)))
	}
	defer func() {
		for _, r := range releases {
			r()
		}
	}()
	for i := 0; i < 4; i++ {
		publish(t, svc, fmt.Sprintf("key-%d", i), "sync")
	}
	publish(t, svc, "", "ping")
	eventually(t, "three held deliveries in progress", func() bool { return s.startedCount() >= 3 })
	time.Sleep(50 * time.Millisecond)
	if n := s.startedCount(); n != 3 {
		t.Fatalf("%d deliveries in progress at once with Workers: 3", n)
	}
	for _, r := range releases {
		r()
	}
	drain(t, svc)
	s.atMost(t, 3)
}
