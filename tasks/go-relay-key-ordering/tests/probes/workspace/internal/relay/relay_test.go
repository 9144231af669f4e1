package relay

import (
	"context"
	"errors"
	"testing"
	"time"

	"example.com/relay/internal/event"
	"example.com/relay/internal/sink"
	"example.com/relay/internal/store"
)

func TestPublishAssignsIDAndSeq(t *testing.T) {
	mem := sink.NewMemory(nil)
	svc, err := New(Options{Sink: mem, IDPrefix: "ord"})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	for i := 1; i <= 3; i++ {
		rc, err := svc.Publish(event.Event{Key: "order-1", Type: "order.updated"})
		if err != nil {
			t.Fatal(err)
		}
		if rc.Seq != uint64(i) {
			t.Fatalf("seq %d, want %d", rc.Seq, i)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := svc.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	st := store.Delivered
	if recs := svc.List(&st); len(recs) != 3 || recs[0].ID != "ord-000001" {
		t.Fatalf("%+v", recs)
	}
	if n := len(mem.Events()); n != 3 {
		t.Fatalf("delivered %d", n)
	}
}

func TestPublishRefuses(t *testing.T) {
	svc, err := New(Options{Sink: sink.NewMemory(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Publish(event.Event{}); !errors.Is(err, event.ErrInvalid) {
		t.Fatalf("invalid: %v", err)
	}
	_ = svc.Close()
	if _, err := svc.Publish(event.Event{Type: "a"}); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed: %v", err)
	}
	if _, err := New(Options{}); err == nil {
		t.Fatal("no sink accepted")
	}
}
