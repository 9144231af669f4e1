// Package config reads tally's configuration file (JSON).
package config

import (
	"tally/internal/tenant"
)

// Config is the whole file.
type Config struct {
	Export    Export            `json:"export"`
	Histogram Histogram         `json:"histogram"`
	Interval  string            `json:"interval"`
	Tenants   map[string]Tenant `json:"tenants"`
}

// Export is how series are written.
type Export struct {
	Job    string `json:"job"`
	Format string `json:"format"` // "prom" (the default) or "json"
}

// Histogram is the bucket layout of every histogram.
type Histogram struct {
	Buckets     []float64   `json:"buckets"`
	Linear      *LinearSpec `json:"linear"`
	Exponential *LinearSpec `json:"exponential"`
}

// LinearSpec is a generated layout: start, then width (or factor), count bounds.
type LinearSpec struct {
	Start float64 `json:"start"`
	Step  float64 `json:"step"`
	Count int     `json:"count"`
}

// Tenant is one tenant's section.
type Tenant struct {
	Labels  map[string]string `json:"labels"`
	Relabel []string          `json:"relabel"`
	Limit   int               `json:"max_series"`
	Prefix  string            `json:"prefix"`
}

// TenantSpecs converts the tenants' sections for tenant.NewDirectory.
func (c *Config) TenantSpecs() map[string]tenant.Spec {
	out := make(map[string]tenant.Spec, len(c.Tenants))
	for id, t := range c.Tenants {
		out[id] = tenant.Spec{Labels: t.Labels, Relabel: t.Relabel, Limit: t.Limit, Prefix: t.Prefix}
	}
	return out
}
