package config

import (
	"testing"
	"time"
)

func TestDefaults(t *testing.T) {
	c, err := Parse([]byte(`{"tenants": {"a": {}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if c.Export.Format != "prom" || c.IntervalDuration() != 10*time.Second || len(c.Histogram.Buckets) == 0 {
		t.Fatalf("%+v", c)
	}
}

func TestBounds(t *testing.T) {
	c, err := Parse([]byte(`{"histogram": {"linear": {"start": 1, "step": 1, "count": 3}}}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := c.Bounds()
	if len(b) != 3 || b[2] != 3 {
		t.Fatal(b)
	}
}

func TestRefused(t *testing.T) {
	for _, text := range []string{
		`{"export": {"format": "xml"}}`,
		`{"histogram": {"buckets": [2, 1]}}`,
		`{"tenants": {"a": {"labels": {"job": "x"}}}}`,
		`{"tenants": {"a": {"labels": {"le": "x"}}}}`,
		`{"tenants": {"a": {"relabel": ["set job x"]}}}`,
		`{"tenants": {"a": {"max_series": -1}}}`,
		`{"interval": "soon"}`,
		`{"tenants": {}, "extra": 1}`,
	} {
		if _, err := Parse([]byte(text)); err == nil {
			t.Errorf("%s accepted", text)
		}
	}
}
