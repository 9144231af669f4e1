package store

import (
	"fmt"
	"sort"
	"sync"
	"time"

	"example.com/relay/internal/event"
)

// Memory is an in-process Store.
type Memory struct {
	mu   sync.Mutex
	recs map[string]*Record
	now  func() time.Time
}

// NewMemory returns an empty store; now may be nil (time.Now).
func NewMemory(now func() time.Time) *Memory {
	if now == nil {
		now = time.Now
	}
	return &Memory{recs: make(map[string]*Record), now: now}
}

func (m *Memory) Accept(e event.Event) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, dup := m.recs[e.ID]; dup {
		return fmt.Errorf("event %s accepted twice", e.ID)
	}
	m.recs[e.ID] = &Record{ID: e.ID, Key: e.Key, Type: e.Type, Seq: e.Seq, State: Pending, Accepted: e.Accepted, Updated: m.now()}
	return nil
}

func (m *Memory) update(id string, f func(r *Record) error) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.recs[id]
	if !ok {
		return fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if r.State.Final() {
		return fmt.Errorf("event %s is already %s", id, r.State)
	}
	if err := f(r); err != nil {
		return err
	}
	r.Updated = m.now()
	return nil
}

func (m *Memory) Attempted(id string, n int, err error) error {
	return m.update(id, func(r *Record) error {
		r.Attempts = n
		if err != nil {
			r.LastError = err.Error()
		}
		return nil
	})
}

func (m *Memory) Delivered(id string, n int) error {
	return m.update(id, func(r *Record) error {
		r.Attempts = n
		r.State = Delivered
		return nil
	})
}

func (m *Memory) Dead(id string, n int, err error) error {
	return m.update(id, func(r *Record) error {
		r.Attempts = n
		r.State = Dead
		if err != nil {
			r.LastError = err.Error()
		}
		return nil
	})
}

func (m *Memory) Get(id string) (Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.recs[id]
	if !ok {
		return Record{}, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	return *r, nil
}

func (m *Memory) List(state *State) []Record {
	m.mu.Lock()
	out := make([]Record, 0, len(m.recs))
	for _, r := range m.recs {
		if state == nil || r.State == *state {
			out = append(out, *r)
		}
	}
	m.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out
}
