package tenant

import "testing"

func TestBase(t *testing.T) {
	d, err := NewDirectory(map[string]Spec{"acme": {Labels: map[string]string{"env": "prod"}}})
	if err != nil {
		t.Fatal(err)
	}
	a, ok := d.Lookup("acme")
	if !ok {
		t.Fatal("no acme")
	}
	if got := a.Base().String(); got != `{env="prod"}` {
		t.Fatal(got)
	}
	if _, ok := d.Lookup("zeta"); ok {
		t.Fatal("zeta found")
	}
}

func TestBadRule(t *testing.T) {
	if _, err := NewDirectory(map[string]Spec{"a": {Relabel: []string{"explode x"}}}); err == nil {
		t.Fatal("accepted")
	}
}
