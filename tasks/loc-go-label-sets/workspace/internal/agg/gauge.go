package agg

// GaugeAgg keeps the last value it was given.
type GaugeAgg struct {
	Value float64
	Set   bool
}

func (g *GaugeAgg) Observe(v, _ float64) { g.Value, g.Set = v, true }
func (g *GaugeAgg) Kind() Kind           { return Gauge }
