package metrics

import (
	"strings"
	"testing"
)

func TestRegistryText(t *testing.T) {
	r := NewRegistry()
	r.Counter("relay_b_total", "b").Add(3)
	r.Gauge("relay_a", "a").Set(-1)
	if r.Counter("relay_b_total", "") != r.Counter("relay_b_total", "") {
		t.Fatal("same name, different counters")
	}
	var sb strings.Builder
	if err := r.WriteText(&sb); err != nil {
		t.Fatal(err)
	}
	want := "# HELP relay_a a\n# TYPE relay_a gauge\nrelay_a -1\n# HELP relay_b_total b\n# TYPE relay_b_total counter\nrelay_b_total 3\n"
	if sb.String() != want {
		t.Fatalf("got\n%s", sb.String())
	}
}

func TestNilRegistry(t *testing.T) {
	var r *Registry
	r.Counter("x", "").Inc()
	r.Gauge("y", "").Set(1)
}
