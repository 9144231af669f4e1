package agg

// CounterAgg sums increments, each scaled by its weight.
type CounterAgg struct {
	Total float64
}

func (c *CounterAgg) Observe(v, weight float64) { c.Total += v * weight }
func (c *CounterAgg) Kind() Kind                { return Counter }
