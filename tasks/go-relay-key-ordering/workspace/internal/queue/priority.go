package queue

import (
	"container/heap"
	"context"
	"sync"
)

// BySeq hands out the waiting item with the lowest event sequence number first (retries
// of old events before new events). Kept for the replay tool, which re-delivers a
// journal's events in acceptance order.
type BySeq struct {
	mu     sync.Mutex
	h      seqHeap
	closed bool
	wake   chan struct{}
}

// NewBySeq returns an empty queue.
func NewBySeq() *BySeq { return &BySeq{wake: make(chan struct{})} }

type seqHeap []Item

func (h seqHeap) Len() int { return len(h) }
func (h seqHeap) Less(i, j int) bool {
	if h[i].Event.Seq == h[j].Event.Seq {
		return h[i].Attempt > h[j].Attempt
	}
	return h[i].Event.Seq < h[j].Event.Seq
}
func (h seqHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *seqHeap) Push(x any)   { *h = append(*h, x.(Item)) }
func (h *seqHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}

func (q *BySeq) Push(it Item) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return ErrClosed
	}
	heap.Push(&q.h, it)
	close(q.wake)
	q.wake = make(chan struct{})
	return nil
}

func (q *BySeq) Pop(ctx context.Context) (Item, error) {
	for {
		q.mu.Lock()
		if len(q.h) > 0 {
			it := heap.Pop(&q.h).(Item)
			q.mu.Unlock()
			return it, nil
		}
		if q.closed {
			q.mu.Unlock()
			return Item{}, ErrClosed
		}
		wake := q.wake
		q.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return Item{}, ctx.Err()
		}
	}
}

func (q *BySeq) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.h)
}

func (q *BySeq) Close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.closed {
		q.closed = true
		close(q.wake)
		q.wake = make(chan struct{})
	}
}
