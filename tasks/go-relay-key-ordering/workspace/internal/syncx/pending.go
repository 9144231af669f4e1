package syncx

import (
	"context"
	"sync"
)

// Pending counts outstanding work and lets callers wait until there is none.
// Unlike sync.WaitGroup, Wait takes a context and Add may be called while others wait.
type Pending struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed while n == 0
}

func (p *Pending) init() {
	if p.idle == nil {
		p.idle = make(chan struct{})
		close(p.idle)
	}
}

// Add adds delta (which may be negative) to the count.
func (p *Pending) Add(delta int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.init()
	was := p.n
	p.n += delta
	if p.n < 0 {
		panic("syncx: negative Pending count")
	}
	switch {
	case was == 0 && p.n > 0:
		p.idle = make(chan struct{})
	case was > 0 && p.n == 0:
		close(p.idle)
	}
}

// Done subtracts one.
func (p *Pending) Done() { p.Add(-1) }

// Count is the current count.
func (p *Pending) Count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.n
}

// Wait returns nil once the count is zero, or ctx's error if ctx ends first.
func (p *Pending) Wait(ctx context.Context) error {
	for {
		p.mu.Lock()
		p.init()
		if p.n == 0 {
			p.mu.Unlock()
			return nil
		}
		idle := p.idle
		p.mu.Unlock()
		select {
		case <-idle:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
