package retry

import (
	"math/rand"
	"sync"
	"time"
)

// Jitter spreads another backoff's waits by up to Fraction of each (0.2 = ±20%), so that
// events that failed together are not retried together.
type Jitter struct {
	Inner    Backoff
	Fraction float64

	mu  sync.Mutex
	rnd *rand.Rand
}

// NewJitter wraps inner with a seeded source (a fixed seed gives a fixed schedule).
func NewJitter(inner Backoff, fraction float64, seed int64) *Jitter {
	return &Jitter{Inner: inner, Fraction: fraction, rnd: rand.New(rand.NewSource(seed))}
}

func (j *Jitter) Delay(attempt int) time.Duration {
	d := j.Inner.Delay(attempt)
	if j.Fraction <= 0 || d <= 0 {
		return d
	}
	j.mu.Lock()
	r := j.rnd.Float64()*2 - 1
	j.mu.Unlock()
	return d + time.Duration(float64(d)*j.Fraction*r)
}
