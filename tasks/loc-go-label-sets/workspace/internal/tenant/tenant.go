// Package tenant knows the tenants tally accepts samples for and the labels every
// series of a tenant starts with.
package tenant

import (
	"fmt"
	"sort"

	"tally/internal/labels"
	"tally/internal/relabel"
)

// A Tenant is one configured tenant.
type Tenant struct {
	ID     string
	base   labels.Set
	Rules  *relabel.Pipeline
	Limit  int // most series the tenant may have; 0: no limit
	Prefix string
}

// Base returns the labels every series of the tenant starts with.
func (t *Tenant) Base() labels.Set { return t.base }

// A Directory holds the tenants.
type Directory struct {
	byID map[string]*Tenant
}

// Spec is a tenant as configured.
type Spec struct {
	Labels  map[string]string
	Relabel []string
	Limit   int
	Prefix  string
}

// NewDirectory makes the tenants of specs.
func NewDirectory(specs map[string]Spec) (*Directory, error) {
	d := &Directory{byID: make(map[string]*Tenant, len(specs))}
	for id, spec := range specs {
		if id == "" {
			return nil, fmt.Errorf("tenant: empty tenant id")
		}
		rules, err := relabel.ParsePipeline(spec.Relabel)
		if err != nil {
			return nil, fmt.Errorf("tenant %s: %w", id, err)
		}
		d.byID[id] = &Tenant{
			ID:     id,
			base:   labels.FromMap(spec.Labels),
			Rules:  rules,
			Limit:  spec.Limit,
			Prefix: spec.Prefix,
		}
	}
	return d, nil
}

// Lookup returns the tenant called id.
func (d *Directory) Lookup(id string) (*Tenant, bool) {
	t, ok := d.byID[id]
	return t, ok
}

// IDs returns the tenant ids in order.
func (d *Directory) IDs() []string {
	out := make([]string, 0, len(d.byID))
	for id := range d.byID {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}
