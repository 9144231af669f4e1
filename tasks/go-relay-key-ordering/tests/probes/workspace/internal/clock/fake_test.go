package clock

import (
	"testing"
	"time"
)

func TestFakeFiresDueTimers(t *testing.T) {
	c := NewFake(time.Unix(0, 0))
	done := make(chan int, 3)
	c.AfterFunc(2*time.Second, func() { done <- 2 })
	c.AfterFunc(time.Second, func() { done <- 1 })
	stopped := c.AfterFunc(time.Second, func() { done <- 9 })
	if !stopped.Stop() {
		t.Fatal("Stop on a pending timer returned false")
	}
	c.Advance(1500 * time.Millisecond)
	if got := <-done; got != 1 {
		t.Fatalf("got timer %d, want 1", got)
	}
	if c.Pending() != 1 {
		t.Fatalf("pending = %d, want 1", c.Pending())
	}
	c.Advance(time.Second)
	if got := <-done; got != 2 {
		t.Fatalf("got timer %d, want 2", got)
	}
}
