package export

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"tally/internal/agg"
	"tally/internal/labels"
	"tally/internal/series"
)

func TestFormatValue(t *testing.T) {
	for v, want := range map[float64]string{12: "12", 0.25: "0.25", 1e7: "10000000", math.Inf(1): "+Inf"} {
		if got := FormatValue(v); got != want {
			t.Errorf("%v: %s", v, got)
		}
	}
}

func TestPromCounterAndGauge(t *testing.T) {
	reg := series.NewRegistry(nil)
	c, _ := reg.Register("t", "hits", agg.Counter, set("route", "/a"))
	c.Agg.Observe(3, 1)
	g, _ := reg.Register("t", "temp", agg.Gauge, nil)
	g.Agg.Observe(20.5, 1)
	var b bytes.Buffer
	if err := WriteProm(&b, reg, Options{}); err != nil {
		t.Fatal(err)
	}
	want := "# TYPE hits counter\nhits{route=\"/a\"} 3\n# TYPE temp gauge\ntemp 20.5\n"
	if b.String() != want {
		t.Fatalf("got\n%s", b.String())
	}
}

func TestPromHistogram(t *testing.T) {
	reg := series.NewRegistry([]float64{0.5, 1})
	h, _ := reg.Register("t", "lat", agg.Histogram, set("route", "/a"))
	for _, v := range []float64{0.25, 0.75, 3} {
		h.Agg.Observe(v, 1)
	}
	var b bytes.Buffer
	WriteProm(&b, reg, Options{})
	want := strings.Join([]string{
		"# TYPE lat histogram",
		`lat_bucket{le="0.5",route="/a"} 1`,
		`lat_bucket{le="1",route="/a"} 2`,
		`lat_bucket{le="+Inf",route="/a"} 3`,
		`lat_sum{route="/a"} 4`,
		`lat_count{route="/a"} 3`,
	}, "\n") + "\n"
	if b.String() != want {
		t.Fatalf("got\n%s", b.String())
	}
}

func TestJob(t *testing.T) {
	reg := series.NewRegistry(nil)
	c, _ := reg.Register("t", "hits", agg.Counter, set("job", "old", "route", "/a"))
	c.Agg.Observe(1, 1)
	var b bytes.Buffer
	WriteProm(&b, reg, Options{Job: "tally"})
	if !strings.Contains(b.String(), `hits{job="tally",route="/a"} 1`) {
		t.Fatalf("got\n%s", b.String())
	}
}

func TestJSON(t *testing.T) {
	reg := series.NewRegistry(nil)
	c, _ := reg.Register("t", "hits", agg.Counter, set("route", "/a"))
	c.Agg.Observe(2, 1)
	var b bytes.Buffer
	WriteJSON(&b, reg, Options{})
	if got := b.String(); got != `{"name":"hits","labels":{"route":"/a"},"value":"2","kind":"counter"}`+"\n" {
		t.Fatal(got)
	}
}

// set makes a set of exactly the labels given.
func set(pairs ...string) labels.Set { return labels.FromStrings(pairs...).Clone() }
