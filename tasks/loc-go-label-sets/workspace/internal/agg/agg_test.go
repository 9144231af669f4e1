package agg

import "testing"

func TestCounter(t *testing.T) {
	c := New(Counter, nil).(*CounterAgg)
	c.Observe(2, 1)
	c.Observe(1, 10)
	if c.Total != 12 {
		t.Fatal(c.Total)
	}
}

func TestGauge(t *testing.T) {
	g := New(Gauge, nil).(*GaugeAgg)
	g.Observe(5, 1)
	g.Observe(3, 4)
	if g.Value != 3 || !g.Set {
		t.Fatal(g.Value)
	}
}

func TestHistogramInclusiveBounds(t *testing.T) {
	h := New(Histogram, []float64{1, 0.5}).(*HistogramAgg)
	for _, v := range []float64{0.5, 0.7, 1, 3} {
		h.Observe(v, 1)
	}
	got := h.Cumulative()
	want := []float64{1, 3, 4}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("cumulative %v, want %v", got, want)
		}
	}
	if h.Sum != 5.2 || h.Count != 4 {
		t.Fatalf("sum %v count %v", h.Sum, h.Count)
	}
}
