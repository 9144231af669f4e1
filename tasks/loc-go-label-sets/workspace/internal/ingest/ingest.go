// Package ingest turns lines into samples of series: it parses a line, gives the
// sample its series' labels (the tenant's, the line's tags, the tenant's relabel
// rules) and hands it to that series' aggregation.
package ingest

import (
	"errors"
	"fmt"

	"tally/internal/labels"
	"tally/internal/limits"
	"tally/internal/parse"
	"tally/internal/series"
	"tally/internal/tenant"
)

// ErrUnknownTenant refuses a line of a tenant that is not configured.
var ErrUnknownTenant = errors.New("unknown tenant")

// A Pipeline ingests lines into a registry.
type Pipeline struct {
	tenants *tenant.Directory
	reg     *series.Registry
	pool    *labels.Pool
	Stats   Stats
}

// New returns a pipeline for the tenants of dir, filling reg.
func New(dir *tenant.Directory, reg *series.Registry) *Pipeline {
	return &Pipeline{tenants: dir, reg: reg, pool: labels.NewPool(), Stats: Stats{OverLimit: map[string]int{}}}
}

// Ingest takes one line of a tenant.
func (p *Pipeline) Ingest(tenantID, line string) error {
	t, ok := p.tenants.Lookup(tenantID)
	if !ok {
		p.Stats.UnknownTenant++
		return fmt.Errorf("%w %q", ErrUnknownTenant, tenantID)
	}
	m, err := parse.Line(line)
	if err != nil {
		p.Stats.BadLine++
		return err
	}
	set := p.seriesLabels(t, m.Tags)
	name := t.Prefix + m.Name
	s := p.reg.Lookup(name, set)
	if s == nil {
		if err := limits.Check(t.ID, p.reg.TenantLen(t.ID), t.Limit); err != nil {
			p.Stats.OverLimit[t.ID]++
			return err
		}
		s, err = p.reg.Register(t.ID, name, m.Kind, set)
		if err != nil {
			p.Stats.KindMismatch++
			return err
		}
	} else if s.Agg.Kind() != m.Kind {
		p.Stats.KindMismatch++
		return &series.ErrKindMismatch{Name: name, Have: s.Agg.Kind(), Got: m.Kind}
	}
	s.Agg.Observe(m.Value, 1/m.Rate)
	p.Stats.Accepted++
	return nil
}

// seriesLabels gives a sample of tenant t with the line's tags its labels.
func (p *Pipeline) seriesLabels(t *tenant.Tenant, tags []parse.Tag) labels.Set {
	set := t.Base()
	for _, tag := range tags {
		set = set.With(p.pool.Intern(tag.Name), p.pool.Intern(tag.Value))
	}
	return t.Rules.Apply(set)
}
