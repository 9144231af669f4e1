package relabel

import (
	"testing"

	"tally/internal/labels"
)

func TestPipeline(t *testing.T) {
	p, err := ParsePipeline([]string{"drop pod", "rename svc service", "default zone a", "when env=dev set tier free"})
	if err != nil {
		t.Fatal(err)
	}
	in := set("env", "dev", "pod", "p-1", "svc", "cart")
	got := p.Apply(in).String()
	if got != `{env="dev",service="cart",tier="free",zone="a"}` {
		t.Fatal(got)
	}
}

func TestRenameReplaces(t *testing.T) {
	r, _ := ParseRule("rename a b")
	got := r.Apply(set("a", "1", "b", "2")).String()
	if got != `{b="1"}` {
		t.Fatal(got)
	}
}

func TestParseErrors(t *testing.T) {
	for _, text := range []string{"", "set a", "drop", "rename a", "set job x", "when set a b", "when x=1", "boom a"} {
		if _, err := ParseRule(text); err == nil {
			t.Errorf("%q accepted", text)
		}
	}
}

// set makes a set of exactly the labels given.
func set(pairs ...string) labels.Set { return labels.FromStrings(pairs...).Clone() }
