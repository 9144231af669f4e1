package event

import (
	"fmt"
	"sync/atomic"
)

// IDs hands out event IDs: a prefix and a zero-padded counter ("evt-000001").
type IDs struct {
	prefix string
	n      atomic.Uint64
}

// NewIDs returns a generator whose IDs start with prefix.
func NewIDs(prefix string) *IDs {
	if prefix == "" {
		prefix = "evt"
	}
	return &IDs{prefix: prefix}
}

// Next returns a fresh ID.
func (g *IDs) Next() string {
	return fmt.Sprintf("%s-%06d", g.prefix, g.n.Add(1))
}
