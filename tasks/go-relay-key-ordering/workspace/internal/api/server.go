package api

import (
	"context"
	"net/http"
	"time"

	"example.com/relay/internal/event"
	"example.com/relay/internal/logx"
	"example.com/relay/internal/metrics"
	"example.com/relay/internal/ratelimit"
	"example.com/relay/internal/relay"
	"example.com/relay/internal/store"
)

// Service is what the handlers need of relay.Service.
type Service interface {
	Publish(e event.Event) (relay.Receipt, error)
	Status(id string) (store.Record, error)
	List(state *store.State) []store.Record
	Drain(ctx context.Context) error
}

// Server routes the API.
type Server struct {
	Svc     Service
	Limiter *ratelimit.Limiter
	Metrics *metrics.Registry
	Log     *logx.Logger
	// DrainTimeout bounds POST /v1/drain (default 30 s).
	DrainTimeout time.Duration
}

// Handler returns the routed API with logging.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/events", s.events)
	mux.HandleFunc("/v1/events/", s.eventByID)
	mux.HandleFunc("/v1/drain", s.drain)
	mux.HandleFunc("/metrics", s.metrics)
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	})
	return s.logged(mux)
}
