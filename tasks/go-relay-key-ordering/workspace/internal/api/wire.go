// Package api is relayd's HTTP interface.
package api

import (
	"encoding/json"
	"time"

	"example.com/relay/internal/event"
	"example.com/relay/internal/store"
)

// publishRequest is the body of POST /v1/events.
type publishRequest struct {
	Key     string            `json:"key"`
	Type    string            `json:"type"`
	Payload json.RawMessage   `json:"payload"`
	Headers map[string]string `json:"headers"`
}

func (p publishRequest) event() event.Event {
	return event.Event{Key: p.Key, Type: p.Type, Payload: []byte(p.Payload), Headers: p.Headers}
}

type receiptJSON struct {
	ID  string `json:"id"`
	Seq uint64 `json:"seq"`
}

type recordJSON struct {
	ID        string    `json:"id"`
	Key       string    `json:"key,omitempty"`
	Type      string    `json:"type"`
	Seq       uint64    `json:"seq"`
	State     string    `json:"state"`
	Attempts  int       `json:"attempts"`
	LastError string    `json:"last_error,omitempty"`
	Accepted  time.Time `json:"accepted"`
	Updated   time.Time `json:"updated"`
}

func toJSON(r store.Record) recordJSON {
	return recordJSON{ID: r.ID, Key: r.Key, Type: r.Type, Seq: r.Seq, State: r.State.String(),
		Attempts: r.Attempts, LastError: r.LastError, Accepted: r.Accepted.UTC(), Updated: r.Updated.UTC()}
}

type errorJSON struct {
	Error string `json:"error"`
}
