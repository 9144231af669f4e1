// Package sink delivers events to their destination.
package sink

import (
	"context"

	"example.com/relay/internal/event"
)

// Sink delivers one event. It must be safe for concurrent use. An error wrapped with
// retry.Permanent is not retried.
type Sink interface {
	Deliver(ctx context.Context, e event.Event) error
	Name() string
}

// Func adapts a function to Sink.
type Func func(ctx context.Context, e event.Event) error

func (f Func) Deliver(ctx context.Context, e event.Event) error { return f(ctx, e) }
func (f Func) Name() string                                     { return "func" }
