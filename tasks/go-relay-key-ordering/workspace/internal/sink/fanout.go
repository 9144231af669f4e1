package sink

import (
	"context"
	"fmt"
	"strings"

	"example.com/relay/internal/event"
	"example.com/relay/internal/retry"
)

// Fanout delivers to every sink in turn; it fails with the first failure. A retried
// event is delivered again to every sink, so sinks must tolerate duplicates.
type Fanout []Sink

func (f Fanout) Name() string {
	names := make([]string, len(f))
	for i, s := range f {
		names[i] = s.Name()
	}
	return "fanout(" + strings.Join(names, ", ") + ")"
}

func (f Fanout) Deliver(ctx context.Context, e event.Event) error {
	for _, s := range f {
		if err := s.Deliver(ctx, e); err != nil {
			if retry.IsPermanent(err) {
				return retry.Permanent(fmt.Errorf("%s: %w", s.Name(), err))
			}
			return fmt.Errorf("%s: %w", s.Name(), err)
		}
	}
	return nil
}

// Filter passes to Inner only the events whose type is in Types; others succeed
// without delivery.
type Filter struct {
	Inner Sink
	Types map[string]bool
}

func (f Filter) Name() string { return "filter(" + f.Inner.Name() + ")" }

func (f Filter) Deliver(ctx context.Context, e event.Event) error {
	if !f.Types[e.Type] {
		return nil
	}
	return f.Inner.Deliver(ctx, e)
}
