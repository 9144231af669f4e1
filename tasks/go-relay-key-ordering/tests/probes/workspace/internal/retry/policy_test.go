package retry

import (
	"errors"
	"testing"
	"time"
)

func TestPolicyStopsAtMaxAttempts(t *testing.T) {
	p := Policy{MaxAttempts: 3, Backoff: Constant(time.Second)}
	boom := errors.New("boom")
	for attempt, want := range map[int]bool{1: true, 2: true, 3: false, 4: false} {
		d, ok := p.Next(attempt, boom)
		if ok != want {
			t.Errorf("attempt %d: retry = %v, want %v", attempt, ok, want)
		}
		if ok && d != time.Second {
			t.Errorf("attempt %d: delay %v", attempt, d)
		}
	}
}

func TestPermanentIsNotRetried(t *testing.T) {
	p := Policy{MaxAttempts: 10}
	if _, ok := p.Next(1, Permanent(errors.New("400"))); ok {
		t.Fatal("permanent error retried")
	}
	if _, ok := p.Next(1, nil); ok {
		t.Fatal("success retried")
	}
}

func TestExponential(t *testing.T) {
	e := Exponential{Base: 100 * time.Millisecond, Max: time.Second}
	want := []time.Duration{100, 200, 400, 800, 1000, 1000}
	for i, w := range want {
		if got := e.Delay(i + 1); got != w*time.Millisecond {
			t.Errorf("attempt %d: %v, want %v", i+1, got, w*time.Millisecond)
		}
	}
}

func TestJitterStaysInRange(t *testing.T) {
	j := NewJitter(Constant(time.Second), 0.2, 1)
	for i := 0; i < 100; i++ {
		d := j.Delay(1)
		if d < 800*time.Millisecond || d > 1200*time.Millisecond {
			t.Fatalf("delay %v outside ±20%%", d)
		}
	}
}
