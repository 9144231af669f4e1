// Package event defines the unit relay accepts and delivers.
package event

import "time"

// Event is one message accepted by the relay.
type Event struct {
	// ID is assigned by the relay when the event is accepted.
	ID string
	// Key groups related events (an order, an account). Empty means the event belongs
	// to no group.
	Key string
	// Type names the kind of event, e.g. "order.paid".
	Type string
	// Payload is delivered as is.
	Payload []byte
	// Headers are copied into the delivery (HTTP sinks send them as X-Relay-* headers).
	Headers map[string]string
	// Seq is the acceptance sequence number, assigned by the relay: 1 for the first
	// accepted event, then 2, 3, ...
	Seq uint64
	// Accepted is when the relay accepted the event.
	Accepted time.Time
}

// Clone returns a copy that shares no mutable state with e.
func (e Event) Clone() Event {
	c := e
	if e.Payload != nil {
		c.Payload = append([]byte(nil), e.Payload...)
	}
	if e.Headers != nil {
		c.Headers = make(map[string]string, len(e.Headers))
		for k, v := range e.Headers {
			c.Headers[k] = v
		}
	}
	return c
}
