package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"time"

	"tally/internal/buckets"
	"tally/internal/relabel"
)

var labelName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)

// Parse reads a configuration, fills in the defaults and checks it.
func Parse(data []byte) (*Config, error) {
	var c Config
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	c.applyDefaults()
	if err := c.check(); err != nil {
		return nil, err
	}
	return &c, nil
}

// Load reads the file at path.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(data)
}

// Bounds returns the histogram layout.
func (c *Config) Bounds() ([]float64, error) {
	switch {
	case c.Histogram.Linear != nil:
		l := c.Histogram.Linear
		return buckets.Linear(l.Start, l.Step, l.Count)
	case c.Histogram.Exponential != nil:
		e := c.Histogram.Exponential
		return buckets.Exponential(e.Start, e.Step, e.Count)
	}
	return c.Histogram.Buckets, nil
}

// IntervalDuration is the export interval.
func (c *Config) IntervalDuration() time.Duration {
	d, err := time.ParseDuration(c.Interval)
	if err != nil {
		return DefaultInterval
	}
	return d
}

func (c *Config) check() error {
	if c.Export.Format != "prom" && c.Export.Format != "json" {
		return fmt.Errorf("config: export.format %q: want prom or json", c.Export.Format)
	}
	if c.Export.Job != "" && !labelName.MatchString("x"+c.Export.Job) {
		return fmt.Errorf("config: export.job %q", c.Export.Job)
	}
	if d, err := time.ParseDuration(c.Interval); err != nil || d <= 0 {
		return fmt.Errorf("config: interval %q", c.Interval)
	}
	b, err := c.Bounds()
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if err := buckets.Check(b); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	for id, t := range c.Tenants {
		for name := range t.Labels {
			if !labelName.MatchString(name) || name == "job" || name == "le" {
				return fmt.Errorf("config: tenant %s: label name %q", id, name)
			}
		}
		if _, err := relabel.ParsePipeline(t.Relabel); err != nil {
			return fmt.Errorf("config: tenant %s: %w", id, err)
		}
		if t.Limit < 0 {
			return fmt.Errorf("config: tenant %s: max_series %d", id, t.Limit)
		}
	}
	return nil
}
