package sink

import (
	"context"
	"sync"

	"example.com/relay/internal/event"
)

// Memory keeps every delivered event, in delivery order. For tests and dry runs.
type Memory struct {
	mu   sync.Mutex
	got  []event.Event
	fail func(event.Event) error
}

// NewMemory returns an empty sink. fail, if not nil, decides per call whether the
// delivery fails (nil: it succeeds and is kept).
func NewMemory(fail func(event.Event) error) *Memory { return &Memory{fail: fail} }

func (m *Memory) Name() string { return "memory" }

func (m *Memory) Deliver(ctx context.Context, e event.Event) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if m.fail != nil {
		if err := m.fail(e); err != nil {
			return err
		}
	}
	m.mu.Lock()
	m.got = append(m.got, e.Clone())
	m.mu.Unlock()
	return nil
}

// Events returns a copy of what was delivered so far.
func (m *Memory) Events() []event.Event {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]event.Event(nil), m.got...)
}
