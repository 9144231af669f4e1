package queue

import (
	"context"
	"sync"
)

// FIFO hands items out in the order they were pushed.
type FIFO struct {
	mu     sync.Mutex
	items  []Item
	head   int
	closed bool
	wake   chan struct{} // closed and replaced whenever an item arrives or the queue closes
}

// NewFIFO returns an empty queue.
func NewFIFO() *FIFO { return &FIFO{wake: make(chan struct{})} }

func (q *FIFO) Push(it Item) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return ErrClosed
	}
	q.items = append(q.items, it)
	q.signal()
	return nil
}

func (q *FIFO) signal() {
	close(q.wake)
	q.wake = make(chan struct{})
}

func (q *FIFO) Pop(ctx context.Context) (Item, error) {
	for {
		q.mu.Lock()
		if q.head < len(q.items) {
			it := q.items[q.head]
			q.items[q.head] = Item{}
			q.head++
			if q.head > 64 && q.head*2 > len(q.items) {
				q.items = append([]Item(nil), q.items[q.head:]...)
				q.head = 0
			}
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

func (q *FIFO) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.items) - q.head
}

func (q *FIFO) Close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.closed {
		q.closed = true
		q.signal()
	}
}
