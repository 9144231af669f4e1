package relay

import (
	"time"

	"example.com/relay/internal/clock"
	"example.com/relay/internal/dispatch"
	"example.com/relay/internal/logx"
	"example.com/relay/internal/metrics"
	"example.com/relay/internal/retry"
	"example.com/relay/internal/sink"
	"example.com/relay/internal/store"
)

// Options configure a Service. Only Sink is required.
type Options struct {
	// Workers is the number of deliveries made at once (default 4).
	Workers int
	Sink    sink.Sink
	// Store records every event's state (default an in-memory store).
	Store store.Store
	Retry retry.Policy
	Clock clock.Clock
	// AttemptTimeout bounds one delivery attempt (0: no bound).
	AttemptTimeout time.Duration
	DeadLetter     dispatch.DeadLetter
	Metrics        *metrics.Registry
	Log            *logx.Logger
	// IDPrefix starts every event ID (default "evt").
	IDPrefix string
	// Ordering of the deliveries of events that share a key (default Unordered).
	Ordering Ordering
}

// Ordering says how the deliveries of events that share a key relate.
type Ordering = dispatch.Ordering

const (
	// Unordered delivers every event as soon as a worker is free (the default).
	Unordered = dispatch.Unordered
	// PerKey delivers the events of one non-empty key one at a time, in Seq order; a
	// failed delivery's retries come before the key's next event, and a waiting key
	// does not hold up other keys.
	PerKey = dispatch.PerKey
)
