// Package series holds every series tally has seen in the current interval.
package series

import (
	"fmt"
	"sort"

	"tally/internal/agg"
	"tally/internal/labels"
)

// A Series is one name and label set, and its aggregation.
type Series struct {
	Name   string
	Labels labels.Set
	Agg    agg.Aggregator
	Tenant string
}

// Registry finds or makes series by name and labels.
type Registry struct {
	bounds   []float64
	byHash   map[uint64][]*Series
	count    int
	byTenant map[string]int
}

// NewRegistry returns an empty registry whose histograms use bounds.
func NewRegistry(bounds []float64) *Registry {
	return &Registry{bounds: bounds, byHash: make(map[uint64][]*Series), byTenant: make(map[string]int)}
}

// ErrKindMismatch is returned when a name is used with two kinds.
type ErrKindMismatch struct {
	Name      string
	Have, Got agg.Kind
}

func (e *ErrKindMismatch) Error() string {
	return fmt.Sprintf("series %s is a %v, not a %v", e.Name, e.Have, e.Got)
}

// Lookup returns the series of name and s, if there is one.
func (r *Registry) Lookup(name string, s labels.Set) *Series {
	for _, e := range r.byHash[Hash(name, s)] {
		if e.Name == name && e.Labels.Equal(s) {
			return e
		}
	}
	return nil
}

// Register returns the series of name and s, making it if needed.
func (r *Registry) Register(tenant, name string, kind agg.Kind, s labels.Set) (*Series, error) {
	if e := r.Lookup(name, s); e != nil {
		if e.Agg.Kind() != kind {
			return nil, &ErrKindMismatch{Name: name, Have: e.Agg.Kind(), Got: kind}
		}
		return e, nil
	}
	e := &Series{Name: name, Labels: s, Agg: agg.New(kind, r.bounds), Tenant: tenant}
	h := Hash(name, s)
	r.byHash[h] = append(r.byHash[h], e)
	r.count++
	r.byTenant[tenant]++
	return e, nil
}

// Len is the number of series.
func (r *Registry) Len() int { return r.count }

// TenantLen is the number of series of one tenant.
func (r *Registry) TenantLen(tenant string) int { return r.byTenant[tenant] }

// All returns every series, ordered by name, then labels.
func (r *Registry) All() []*Series {
	out := make([]*Series, 0, r.count)
	for _, list := range r.byHash {
		out = append(out, list...)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].Labels.String() < out[j].Labels.String()
	})
	return out
}

// Reset forgets every series (the start of a new interval).
func (r *Registry) Reset() {
	r.byHash = make(map[uint64][]*Series)
	r.byTenant = make(map[string]int)
	r.count = 0
}
