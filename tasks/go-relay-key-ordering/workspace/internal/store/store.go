// Package store records the delivery state of every accepted event.
package store

import (
	"errors"
	"fmt"
	"time"

	"example.com/relay/internal/event"
)

// State of one event.
type State int

const (
	// Pending: accepted, not yet delivered nor given up on.
	Pending State = iota
	// Delivered: a delivery attempt succeeded.
	Delivered
	// Dead: every allowed attempt failed (or one failed permanently); the event went to
	// the dead-letter handler.
	Dead
)

func (s State) String() string {
	switch s {
	case Pending:
		return "pending"
	case Delivered:
		return "delivered"
	case Dead:
		return "dead"
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// ParseState is the inverse of String.
func ParseState(s string) (State, error) {
	for _, st := range []State{Pending, Delivered, Dead} {
		if st.String() == s {
			return st, nil
		}
	}
	return 0, fmt.Errorf("unknown state %q", s)
}

// Final reports whether no more attempts will be made.
func (s State) Final() bool { return s == Delivered || s == Dead }

// Record is what the store knows about one event.
type Record struct {
	ID        string
	Key       string
	Type      string
	Seq       uint64
	State     State
	Attempts  int
	LastError string
	Accepted  time.Time
	Updated   time.Time
}

// ErrNotFound is returned for an unknown event ID.
var ErrNotFound = errors.New("event not found")

// Store must be safe for concurrent use.
type Store interface {
	// Accept records a new event as Pending.
	Accept(e event.Event) error
	// Attempted records that attempt n of the event failed with err.
	Attempted(id string, n int, err error) error
	// Delivered records the final success at attempt n.
	Delivered(id string, n int) error
	// Dead records that the event was given up on after attempt n.
	Dead(id string, n int, err error) error
	Get(id string) (Record, error)
	// List returns the records in acceptance order, optionally only those in one state.
	List(state *State) []Record
}
