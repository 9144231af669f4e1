package dispatch

import "example.com/relay/internal/metrics"

type stats struct {
	queued      *metrics.Gauge
	inflight    *metrics.Gauge
	attempts    *metrics.Counter
	retries     *metrics.Counter
	delivered   *metrics.Counter
	dead        *metrics.Counter
	storeErrors *metrics.Counter
}

func newStats(r *metrics.Registry) stats {
	return stats{
		queued:      r.Gauge("relay_queue_length", "Delivery attempts waiting for a worker."),
		inflight:    r.Gauge("relay_inflight", "Delivery attempts running now."),
		attempts:    r.Counter("relay_attempts_total", "Delivery attempts made."),
		retries:     r.Counter("relay_retries_total", "Failed attempts that were scheduled again."),
		delivered:   r.Counter("relay_delivered_total", "Events delivered."),
		dead:        r.Counter("relay_dead_total", "Events given up on."),
		storeErrors: r.Counter("relay_store_errors_total", "Store updates that failed."),
	}
}
