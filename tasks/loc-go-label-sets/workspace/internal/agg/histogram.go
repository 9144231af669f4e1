package agg

import "sort"

// HistogramAgg counts observations in buckets by upper bound (inclusive).
type HistogramAgg struct {
	Bounds []float64 // sorted upper bounds, without +Inf
	Counts []float64 // per bucket (not cumulative); the last is the +Inf bucket
	Sum    float64
	Count  float64
}

// NewHistogram returns an empty histogram with the given upper bounds.
func NewHistogram(bounds []float64) *HistogramAgg {
	b := append([]float64(nil), bounds...)
	sort.Float64s(b)
	return &HistogramAgg{Bounds: b, Counts: make([]float64, len(b)+1)}
}

func (h *HistogramAgg) Observe(v, weight float64) {
	i := sort.SearchFloat64s(h.Bounds, v)
	h.Counts[i] += weight
	h.Sum += v * weight
	h.Count += weight
}

func (h *HistogramAgg) Kind() Kind { return Histogram }

// Cumulative returns the count of observations at or below each bound, then the total.
func (h *HistogramAgg) Cumulative() []float64 {
	out := make([]float64, len(h.Counts))
	var run float64
	for i, c := range h.Counts {
		run += c
		out[i] = run
	}
	return out
}
