package config

import (
	"time"

	"tally/internal/buckets"
)

// DefaultInterval is how often tallyd exports when the file names no interval.
const DefaultInterval = 10 * time.Second

func (c *Config) applyDefaults() {
	if c.Export.Format == "" {
		c.Export.Format = "prom"
	}
	if c.Interval == "" {
		c.Interval = DefaultInterval.String()
	}
	if len(c.Histogram.Buckets) == 0 && c.Histogram.Linear == nil && c.Histogram.Exponential == nil {
		c.Histogram.Buckets = append([]float64(nil), buckets.Default...)
	}
}
