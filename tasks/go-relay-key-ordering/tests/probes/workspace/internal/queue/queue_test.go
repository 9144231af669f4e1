package queue

import (
	"context"
	"errors"
	"testing"
	"time"

	"example.com/relay/internal/event"
)

func item(seq uint64, attempt int) Item {
	return Item{Event: event.Event{Seq: seq}, Attempt: attempt}
}

func drain(t *testing.T, q Queue) []uint64 {
	t.Helper()
	var got []uint64
	for q.Len() > 0 {
		it, err := q.Pop(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, it.Event.Seq)
	}
	return got
}

func TestFIFOOrder(t *testing.T) {
	q := NewFIFO()
	for _, s := range []uint64{3, 1, 2} {
		if err := q.Push(item(s, 1)); err != nil {
			t.Fatal(err)
		}
	}
	if got := drain(t, q); len(got) != 3 || got[0] != 3 || got[1] != 1 || got[2] != 2 {
		t.Fatalf("got %v", got)
	}
}

func TestBySeqOrder(t *testing.T) {
	q := NewBySeq()
	for _, s := range []uint64{3, 1, 2} {
		_ = q.Push(item(s, 1))
	}
	if got := drain(t, q); got[0] != 1 || got[1] != 2 || got[2] != 3 {
		t.Fatalf("got %v", got)
	}
}

func TestPopWaitsAndClose(t *testing.T) {
	for name, q := range map[string]Queue{"fifo": NewFIFO(), "byseq": NewBySeq()} {
		got := make(chan error, 1)
		go func() {
			_, err := q.Pop(context.Background())
			got <- err
		}()
		_ = q.Push(item(1, 1))
		if err := <-got; err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		q.Close()
		if _, err := q.Pop(context.Background()); !errors.Is(err, ErrClosed) {
			t.Fatalf("%s: pop after close: %v", name, err)
		}
		if err := q.Push(item(2, 1)); !errors.Is(err, ErrClosed) {
			t.Fatalf("%s: push after close: %v", name, err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
		_, _ = q.Pop(ctx)
		cancel()
	}
}
