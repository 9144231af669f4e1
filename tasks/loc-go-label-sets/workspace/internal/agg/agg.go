// Package agg holds the aggregations of a series' samples in one interval.
package agg

import "fmt"

// Kind is what a series is.
type Kind int

const (
	Counter Kind = iota + 1
	Gauge
	Histogram
)

func (k Kind) String() string {
	switch k {
	case Counter:
		return "counter"
	case Gauge:
		return "gauge"
	case Histogram:
		return "histogram"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// An Aggregator takes a series' samples.
type Aggregator interface {
	// Observe takes one sample; weight is how many samples it stands for (1/rate).
	Observe(v, weight float64)
	Kind() Kind
}

// New returns an empty aggregator for kind; bounds are the histogram's buckets.
func New(kind Kind, bounds []float64) Aggregator {
	switch kind {
	case Counter:
		return &CounterAgg{}
	case Gauge:
		return &GaugeAgg{}
	case Histogram:
		return NewHistogram(bounds)
	}
	panic(fmt.Sprintf("agg.New: %v", kind))
}
