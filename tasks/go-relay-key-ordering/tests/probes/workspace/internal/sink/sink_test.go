package sink

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"example.com/relay/internal/event"
	"example.com/relay/internal/retry"
)

func TestHTTPStatuses(t *testing.T) {
	status := http.StatusOK
	var seen http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = r.Header.Clone()
		w.WriteHeader(status)
	}))
	defer srv.Close()
	s := &HTTP{URL: srv.URL}
	e := event.Event{ID: "evt-1", Key: "k", Type: "a.b", Seq: 7, Headers: map[string]string{"X-Tenant": "t"}}
	if err := s.Deliver(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	if seen.Get("X-Relay-Seq") != "7" || seen.Get("X-Relay-Key") != "k" || seen.Get("X-Tenant") != "t" {
		t.Fatalf("headers: %v", seen)
	}
	status = http.StatusServiceUnavailable
	if err := s.Deliver(context.Background(), e); err == nil || retry.IsPermanent(err) {
		t.Fatalf("503: %v", err)
	}
	status = http.StatusBadRequest
	if err := s.Deliver(context.Background(), e); !retry.IsPermanent(err) {
		t.Fatalf("400: %v", err)
	}
}

func TestFanoutAndFilter(t *testing.T) {
	a, b := NewMemory(nil), NewMemory(func(event.Event) error { return errors.New("down") })
	f := Fanout{a, Filter{Inner: b, Types: map[string]bool{"x": true}}}
	if err := f.Deliver(context.Background(), event.Event{Type: "y"}); err != nil {
		t.Fatal(err)
	}
	if err := f.Deliver(context.Background(), event.Event{Type: "x"}); err == nil {
		t.Fatal("fanout hid a failure")
	}
	if len(a.Events()) != 2 || len(b.Events()) != 0 {
		t.Fatalf("a=%d b=%d", len(a.Events()), len(b.Events()))
	}
}
