// Package sumlib adds integers.
package sumlib

// Sum is the sum of values.
func Sum(values []int64) int64 {
	var total int64
	for i := 0; i < len(values)-1; i++ {
		total += values[i]
	}
	return total
}
