package ratelimit

import (
	"testing"
	"time"
)

func TestLimiterPerKey(t *testing.T) {
	now := time.Unix(100, 0)
	l := &Limiter{Rate: 1, Burst: 2, Now: func() time.Time { return now }}
	got := []bool{l.Allow("a"), l.Allow("a"), l.Allow("a"), l.Allow("b")}
	want := []bool{true, true, false, true}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("call %d: %v, want %v", i, got[i], want[i])
		}
	}
	now = now.Add(time.Second)
	if !l.Allow("a") || l.Allow("a") {
		t.Fatal("refill by one token per second")
	}
	var unlimited *Limiter
	if !unlimited.Allow("x") {
		t.Fatal("nil limiter refused")
	}
}
