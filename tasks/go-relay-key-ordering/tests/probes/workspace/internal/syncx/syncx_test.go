package syncx

import (
	"context"
	"sync"
	"testing"
	"time"
)

func TestKeyedMutexSeparatesKeys(t *testing.T) {
	var k KeyedMutex
	k.Lock("a")
	done := make(chan struct{})
	go func() {
		k.Lock("b")
		k.Unlock("b")
		close(done)
	}()
	<-done
	k.Unlock("a")
	if k.Len() != 0 {
		t.Fatalf("%d keys left", k.Len())
	}
}

func TestKeyedMutexExcludes(t *testing.T) {
	var k KeyedMutex
	var wg sync.WaitGroup
	n := 0
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k.Lock("x")
			n++
			k.Unlock("x")
		}()
	}
	wg.Wait()
	if n != 50 {
		t.Fatalf("n = %d", n)
	}
}

func TestPendingWait(t *testing.T) {
	var p Pending
	if err := p.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	p.Add(2)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := p.Wait(ctx); err == nil {
		t.Fatal("Wait returned nil with work outstanding")
	}
	p.Done()
	p.Done()
	if err := p.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
}
