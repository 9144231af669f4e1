// Package ratelimit is a token bucket per tenant.
package ratelimit

import (
	"sync"
	"time"
)

// Bucket holds up to Burst tokens and gains Rate tokens per second.
type Bucket struct {
	Rate  float64
	Burst float64

	tokens float64
	last   time.Time
	init   bool
}

// Take removes one token at now if there is one.
func (b *Bucket) Take(now time.Time) bool {
	if !b.init {
		b.tokens, b.last, b.init = b.Burst, now, true
	}
	if el := now.Sub(b.last).Seconds(); el > 0 {
		b.tokens += el * b.Rate
		if b.tokens > b.Burst {
			b.tokens = b.Burst
		}
		b.last = now
	}
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// Limiter keeps one bucket per key. A zero Rate allows everything.
type Limiter struct {
	Rate  float64
	Burst int
	Now   func() time.Time

	mu      sync.Mutex
	buckets map[string]*Bucket
}

// Allow reports whether key may make one more request now.
func (l *Limiter) Allow(key string) bool {
	if l == nil || l.Rate <= 0 {
		return true
	}
	now := time.Now
	if l.Now != nil {
		now = l.Now
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.buckets == nil {
		l.buckets = make(map[string]*Bucket)
	}
	b := l.buckets[key]
	if b == nil {
		b = &Bucket{Rate: l.Rate, Burst: float64(l.Burst)}
		l.buckets[key] = b
	}
	return b.Take(now())
}
