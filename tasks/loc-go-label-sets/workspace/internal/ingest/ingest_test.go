package ingest

import (
	"errors"
	"testing"

	"tally/internal/agg"
	"tally/internal/labels"
	"tally/internal/series"
	"tally/internal/tenant"
)

func setup(t *testing.T, specs map[string]tenant.Spec) (*Pipeline, *series.Registry) {
	t.Helper()
	dir, err := tenant.NewDirectory(specs)
	if err != nil {
		t.Fatal(err)
	}
	reg := series.NewRegistry([]float64{1, 2})
	return New(dir, reg), reg
}

func TestIngestCounter(t *testing.T) {
	p, reg := setup(t, map[string]tenant.Spec{"acme": {Labels: map[string]string{"env": "prod"}}})
	for _, l := range []string{"hits:1|c|#zone:b", "hits:2|c|@0.5|#zone:b"} {
		if err := p.Ingest("acme", l); err != nil {
			t.Fatal(err)
		}
	}
	s := reg.Lookup("hits", labels.FromStrings("env", "prod", "zone", "b"))
	if s == nil {
		t.Fatal("no series")
	}
	if got := s.Agg.(*agg.CounterAgg).Total; got != 5 {
		t.Fatalf("total %v", got)
	}
}

func TestIngestUnknownTenant(t *testing.T) {
	p, _ := setup(t, nil)
	if err := p.Ingest("x", "a:1|c"); !errors.Is(err, ErrUnknownTenant) || p.Stats.UnknownTenant != 1 {
		t.Fatal(err)
	}
}

func TestRelabelApplied(t *testing.T) {
	p, reg := setup(t, map[string]tenant.Spec{"acme": {Relabel: []string{"drop pod"}}})
	if err := p.Ingest("acme", "up:1|g|#pod:p-7"); err != nil {
		t.Fatal(err)
	}
	if reg.Lookup("up", nil) == nil {
		t.Fatal("pod not dropped")
	}
}

func TestLimit(t *testing.T) {
	p, _ := setup(t, map[string]tenant.Spec{"acme": {Limit: 1}})
	p.Ingest("acme", "a:1|c")
	p.Ingest("acme", "a:1|c")
	if err := p.Ingest("acme", "b:1|c"); err == nil || p.Stats.OverLimit["acme"] != 1 {
		t.Fatal("limit not applied")
	}
}

func TestKindMismatch(t *testing.T) {
	p, _ := setup(t, map[string]tenant.Spec{"acme": {}})
	p.Ingest("acme", "a:1|c")
	if err := p.Ingest("acme", "a:1|g"); err == nil || p.Stats.KindMismatch != 1 {
		t.Fatal("kind mismatch accepted")
	}
}
