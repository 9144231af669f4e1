package parse

import (
	"testing"

	"tally/internal/agg"
)

func TestLine(t *testing.T) {
	m, err := Line("http.requests:3|c|@0.5|#route:/cart,method:GET")
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "http_requests" || m.Value != 3 || m.Kind != agg.Counter || m.Rate != 0.5 {
		t.Fatalf("got %+v", m)
	}
	if len(m.Tags) != 2 || m.Tags[0] != (Tag{"route", "/cart"}) || m.Tags[1] != (Tag{"method", "GET"}) {
		t.Fatalf("tags %+v", m.Tags)
	}
}

func TestLineKinds(t *testing.T) {
	for text, kind := range map[string]agg.Kind{"a:1|c": agg.Counter, "a:1|g": agg.Gauge, "a:1|ms": agg.Histogram, "a:1|h": agg.Histogram} {
		m, err := Line(text)
		if err != nil || m.Kind != kind {
			t.Errorf("%s: %v %v", text, m.Kind, err)
		}
	}
}

func TestLineRefused(t *testing.T) {
	for _, text := range []string{"", ":1|c", "a:x|c", "a:1|q", "a:1", "a:1|c|@2", "a:-1|c", "9a:1|c", "a:1|c|#__x:1", "a b:1|c"} {
		if _, err := Line(text); err == nil {
			t.Errorf("%q accepted", text)
		}
	}
}

func TestTagWithoutValue(t *testing.T) {
	tags, err := Tags("canary,zone:b")
	if err != nil || len(tags) != 2 || tags[0].Value != "true" {
		t.Fatalf("%+v %v", tags, err)
	}
}
