package series

import (
	"testing"

	"tally/internal/agg"
	"tally/internal/labels"
)

func TestRegisterFindsSame(t *testing.T) {
	r := NewRegistry(nil)
	a, _ := r.Register("t", "x", agg.Counter, labels.FromStrings("a", "1"))
	b, _ := r.Register("t", "x", agg.Counter, labels.FromStrings("a", "1"))
	c, _ := r.Register("t", "x", agg.Counter, labels.FromStrings("a", "2"))
	if a != b || a == c || r.Len() != 2 || r.TenantLen("t") != 2 {
		t.Fatal("registry")
	}
}

func TestKindMismatch(t *testing.T) {
	r := NewRegistry(nil)
	r.Register("t", "x", agg.Counter, nil)
	if _, err := r.Register("t", "x", agg.Gauge, nil); err == nil {
		t.Fatal("accepted")
	}
}

func TestAllOrdered(t *testing.T) {
	r := NewRegistry(nil)
	r.Register("t", "b", agg.Counter, labels.FromStrings("z", "1"))
	r.Register("t", "a", agg.Counter, labels.FromStrings("z", "2"))
	r.Register("t", "a", agg.Counter, labels.FromStrings("z", "1"))
	all := r.All()
	if all[0].Name != "a" || all[0].Labels.String() != `{z="1"}` || all[2].Name != "b" {
		t.Fatal("order")
	}
}

func TestHashDiffers(t *testing.T) {
	if Hash("a", labels.FromStrings("b", "c")) == Hash("a", labels.FromStrings("bc", "")) {
		t.Fatal("collision")
	}
}
