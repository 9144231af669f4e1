package api

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"example.com/relay/internal/event"
	"example.com/relay/internal/relay"
	"example.com/relay/internal/store"
)

const maxBody = event.MaxPayload + 16<<10

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func fail(w http.ResponseWriter, status int, err error) {
	writeJSON(w, status, errorJSON{Error: err.Error()})
}

// events: POST publishes one event; GET lists records (?state=pending|delivered|dead).
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
		s.publish(w, r)
	case http.MethodGet:
		var filter *store.State
		if q := r.URL.Query().Get("state"); q != "" {
			st, err := store.ParseState(q)
			if err != nil {
				fail(w, http.StatusBadRequest, err)
				return
			}
			filter = &st
		}
		recs := s.Svc.List(filter)
		out := make([]recordJSON, len(recs))
		for i, rec := range recs {
			out[i] = toJSON(rec)
		}
		writeJSON(w, http.StatusOK, out)
	default:
		w.Header().Set("Allow", "GET, POST")
		fail(w, http.StatusMethodNotAllowed, errors.New("method not allowed"))
	}
}

func (s *Server) publish(w http.ResponseWriter, r *http.Request) {
	if !s.Limiter.Allow(tenant(r)) {
		w.Header().Set("Retry-After", "1")
		fail(w, http.StatusTooManyRequests, errors.New("rate limit exceeded"))
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		fail(w, http.StatusBadRequest, err)
		return
	}
	if len(body) > maxBody {
		fail(w, http.StatusRequestEntityTooLarge, errors.New("body too large"))
		return
	}
	var req publishRequest
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		fail(w, http.StatusBadRequest, err)
		return
	}
	rc, err := s.Svc.Publish(req.event())
	switch {
	case errors.Is(err, event.ErrInvalid):
		fail(w, http.StatusUnprocessableEntity, err)
	case errors.Is(err, relay.ErrClosed):
		fail(w, http.StatusServiceUnavailable, err)
	case err != nil:
		fail(w, http.StatusInternalServerError, err)
	default:
		writeJSON(w, http.StatusAccepted, receiptJSON{ID: rc.ID, Seq: rc.Seq})
	}
}

func (s *Server) eventByID(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		fail(w, http.StatusMethodNotAllowed, errors.New("method not allowed"))
		return
	}
	id := strings.TrimPrefix(r.URL.Path, "/v1/events/")
	rec, err := s.Svc.Status(id)
	if errors.Is(err, store.ErrNotFound) {
		fail(w, http.StatusNotFound, err)
		return
	}
	if err != nil {
		fail(w, http.StatusInternalServerError, err)
		return
	}
	writeJSON(w, http.StatusOK, toJSON(rec))
}

func (s *Server) drain(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		fail(w, http.StatusMethodNotAllowed, errors.New("method not allowed"))
		return
	}
	timeout := s.DrainTimeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(r.Context(), timeout)
	defer cancel()
	if err := s.Svc.Drain(ctx); err != nil {
		fail(w, http.StatusGatewayTimeout, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) metrics(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4")
	if s.Metrics != nil {
		_ = s.Metrics.WriteText(w)
	}
}
