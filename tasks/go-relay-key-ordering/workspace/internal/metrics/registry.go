package metrics

import (
	"fmt"
	"io"
	"sort"
	"sync"
)

// Registry names counters and gauges. A nil *Registry hands out unregistered metrics,
// so callers never need to check.
type Registry struct {
	mu       sync.Mutex
	counters map[string]*Counter
	gauges   map[string]*Gauge
	help     map[string]string
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{counters: map[string]*Counter{}, gauges: map[string]*Gauge{}, help: map[string]string{}}
}

// Counter returns the counter called name, creating it.
func (r *Registry) Counter(name, help string) *Counter {
	if r == nil {
		return &Counter{}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	c, ok := r.counters[name]
	if !ok {
		c = &Counter{}
		r.counters[name] = c
		r.help[name] = help
	}
	return c
}

// Gauge returns the gauge called name, creating it.
func (r *Registry) Gauge(name, help string) *Gauge {
	if r == nil {
		return &Gauge{}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	g, ok := r.gauges[name]
	if !ok {
		g = &Gauge{}
		r.gauges[name] = g
		r.help[name] = help
	}
	return g
}

// WriteText writes every metric, sorted by name.
func (r *Registry) WriteText(w io.Writer) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	type line struct {
		name, kind string
		v          int64
	}
	var lines []line
	for n, c := range r.counters {
		lines = append(lines, line{n, "counter", c.Value()})
	}
	for n, g := range r.gauges {
		lines = append(lines, line{n, "gauge", g.Value()})
	}
	sort.Slice(lines, func(i, j int) bool { return lines[i].name < lines[j].name })
	for _, l := range lines {
		if _, err := fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n%s %d\n", l.name, r.help[l.name], l.name, l.kind, l.name, l.v); err != nil {
			return err
		}
	}
	return nil
}
