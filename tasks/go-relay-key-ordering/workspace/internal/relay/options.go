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
}
