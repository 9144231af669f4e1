// Package buckets makes histogram bucket layouts.
package buckets

import (
	"errors"
	"sort"
)

// Default is the layout used when the configuration names none (seconds).
var Default = []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// Linear returns count bounds start, start+width, ...
func Linear(start, width float64, count int) ([]float64, error) {
	if count < 1 || width <= 0 {
		return nil, errors.New("buckets: linear layout needs count >= 1 and width > 0")
	}
	out := make([]float64, count)
	for i := range out {
		out[i] = start + float64(i)*width
	}
	return out, nil
}

// Exponential returns count bounds start, start*factor, ...
func Exponential(start, factor float64, count int) ([]float64, error) {
	if count < 1 || start <= 0 || factor <= 1 {
		return nil, errors.New("buckets: exponential layout needs count >= 1, start > 0 and factor > 1")
	}
	out := make([]float64, count)
	v := start
	for i := range out {
		out[i] = v
		v *= factor
	}
	return out, nil
}

// Check requires bounds sorted, distinct and finite.
func Check(bounds []float64) error {
	if len(bounds) == 0 {
		return errors.New("buckets: no bounds")
	}
	if !sort.Float64sAreSorted(bounds) {
		return errors.New("buckets: bounds not in increasing order")
	}
	for i := 1; i < len(bounds); i++ {
		if bounds[i] == bounds[i-1] {
			return errors.New("buckets: a bound given twice")
		}
	}
	return nil
}
