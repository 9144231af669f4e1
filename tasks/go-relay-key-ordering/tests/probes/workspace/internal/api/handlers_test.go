package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"example.com/relay/internal/ratelimit"
	"example.com/relay/internal/relay"
	"example.com/relay/internal/sink"
)

func newServer(t *testing.T) (*httptest.Server, *sink.Memory) {
	t.Helper()
	mem := sink.NewMemory(nil)
	svc, err := relay.New(relay.Options{Sink: mem})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close() })
	now := time.Unix(0, 0)
	srv := httptest.NewServer((&Server{Svc: svc, Limiter: &ratelimit.Limiter{Rate: 1, Burst: 3, Now: func() time.Time { return now }}}).Handler())
	t.Cleanup(srv.Close)
	return srv, mem
}

func post(t *testing.T, url, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func TestPublishStatusDrain(t *testing.T) {
	srv, mem := newServer(t)
	resp := post(t, srv.URL+"/v1/events", `{"key":"order-7","type":"order.paid","payload":{"total":12}}`)
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("status %d", resp.StatusCode)
	}
	var rc receiptJSON
	_ = json.NewDecoder(resp.Body).Decode(&rc)
	resp.Body.Close()
	if rc.Seq != 1 || rc.ID != "evt-000001" {
		t.Fatalf("%+v", rc)
	}
	if resp := post(t, srv.URL+"/v1/drain", ""); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("drain %d", resp.StatusCode)
	}
	got, err := http.Get(srv.URL + "/v1/events/" + rc.ID)
	if err != nil {
		t.Fatal(err)
	}
	var rec recordJSON
	_ = json.NewDecoder(got.Body).Decode(&rec)
	got.Body.Close()
	if rec.State != "delivered" || rec.Attempts != 1 || rec.Key != "order-7" {
		t.Fatalf("%+v", rec)
	}
	if n := len(mem.Events()); n != 1 {
		t.Fatalf("sink got %d events", n)
	}
}

func TestPublishRefusals(t *testing.T) {
	srv, _ := newServer(t)
	for body, want := range map[string]int{
		`{"type":"Bad Type"}`: http.StatusUnprocessableEntity,
		`{"type":"a","x":1}`:  http.StatusBadRequest,
		`not json`:            http.StatusBadRequest,
	} {
		if resp := post(t, srv.URL+"/v1/events", body); resp.StatusCode != want {
			t.Errorf("%s: %d, want %d", body, resp.StatusCode, want)
		}
	}
	// The three refusals above used up the burst of tenant "-".
	if resp := post(t, srv.URL+"/v1/events", `{"type":"a"}`); resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("rate limit: %d", resp.StatusCode)
	}
	if resp, _ := http.Get(srv.URL + "/v1/events/evt-999999"); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown id: %d", resp.StatusCode)
	}
}
