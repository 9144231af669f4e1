// Package export writes the series of an interval in Prometheus's text format or
// as JSON lines.
package export

import (
	"sort"

	"tally/internal/agg"
	"tally/internal/labels"
	"tally/internal/series"
)

// A Sample is one line of the export.
type Sample struct {
	Family string // the series name; a histogram's samples are name_bucket, _sum, _count
	Name   string
	Labels labels.Set
	Value  float64
	Kind   agg.Kind
	order  int
}

// Options are the export's settings.
type Options struct {
	Job string // when set, every series' job label
}

// Samples returns the samples of every series of reg, ordered by family, then the
// series' labels; a histogram's buckets in increasing order, then _sum and _count.
func Samples(reg *series.Registry, opt Options) []Sample {
	var out []Sample
	add := func(s Sample) {
		s.order = len(out)
		out = append(out, s)
	}
	for _, s := range reg.All() {
		ls := s.Labels
		if opt.Job != "" {
			ls = ls.With("job", opt.Job)
		}
		switch a := s.Agg.(type) {
		case *agg.CounterAgg:
			add(Sample{Family: s.Name, Name: s.Name, Labels: ls, Value: a.Total, Kind: agg.Counter})
		case *agg.GaugeAgg:
			add(Sample{Family: s.Name, Name: s.Name, Labels: ls, Value: a.Value, Kind: agg.Gauge})
		case *agg.HistogramAgg:
			cum := a.Cumulative()
			for i, b := range a.Bounds {
				add(Sample{Family: s.Name, Name: s.Name + "_bucket", Labels: ls.With("le", FormatValue(b)), Value: cum[i], Kind: agg.Histogram})
			}
			add(Sample{Family: s.Name, Name: s.Name + "_bucket", Labels: ls.With("le", "+Inf"), Value: cum[len(cum)-1], Kind: agg.Histogram})
			add(Sample{Family: s.Name, Name: s.Name + "_sum", Labels: ls, Value: a.Sum, Kind: agg.Histogram})
			add(Sample{Family: s.Name, Name: s.Name + "_count", Labels: ls, Value: a.Count, Kind: agg.Histogram})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Family != out[j].Family {
			return out[i].Family < out[j].Family
		}
		return out[i].order < out[j].order
	})
	return out
}
