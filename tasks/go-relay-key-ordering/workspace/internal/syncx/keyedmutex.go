// Package syncx has small synchronization helpers.
package syncx

import "sync"

// KeyedMutex is a set of mutexes addressed by string: Lock("a") and Lock("b") do not
// exclude each other. Entries are dropped when no goroutine holds or waits for them.
// Used by the journal to serialize appends per file.
type KeyedMutex struct {
	mu    sync.Mutex
	locks map[string]*keyedEntry
}

type keyedEntry struct {
	mu   sync.Mutex
	refs int
}

// Lock blocks until the mutex of key is held by the caller.
func (k *KeyedMutex) Lock(key string) {
	k.mu.Lock()
	if k.locks == nil {
		k.locks = make(map[string]*keyedEntry)
	}
	e := k.locks[key]
	if e == nil {
		e = &keyedEntry{}
		k.locks[key] = e
	}
	e.refs++
	k.mu.Unlock()
	e.mu.Lock()
}

// Unlock releases the mutex of key. Unlocking a key that is not locked panics.
func (k *KeyedMutex) Unlock(key string) {
	k.mu.Lock()
	e := k.locks[key]
	if e == nil {
		k.mu.Unlock()
		panic("syncx: unlock of unlocked key " + key)
	}
	e.refs--
	if e.refs == 0 {
		delete(k.locks, key)
	}
	k.mu.Unlock()
	e.mu.Unlock()
}

// Len is the number of keys held or waited for.
func (k *KeyedMutex) Len() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.locks)
}
