package labels

import "sync"

// A Pool interns label names and values, so that the many series of a tenant share
// one copy of each string.
type Pool struct {
	mu      sync.Mutex
	strings map[string]string
}

// NewPool returns an empty pool.
func NewPool() *Pool { return &Pool{strings: make(map[string]string)} }

// Intern returns the pool's copy of v.
func (p *Pool) Intern(v string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if s, ok := p.strings[v]; ok {
		return s
	}
	p.strings[v] = v
	return v
}

// Len is the number of distinct strings held.
func (p *Pool) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.strings)
}
