// Package queue holds deliveries waiting for a worker.
package queue

import (
	"context"
	"errors"

	"example.com/relay/internal/event"
)

// Item is one delivery attempt waiting to run.
type Item struct {
	Event event.Event
	// Attempt is 1 for the first delivery, 2 for the first retry, ...
	Attempt int
}

// ErrClosed is returned by Push after Close, and by Pop once a closed queue is empty.
var ErrClosed = errors.New("queue closed")

// Queue is safe for concurrent use.
type Queue interface {
	Push(Item) error
	// Pop blocks until an item is available, the queue is closed and empty, or ctx ends.
	Pop(ctx context.Context) (Item, error)
	Len() int
	Close()
}
