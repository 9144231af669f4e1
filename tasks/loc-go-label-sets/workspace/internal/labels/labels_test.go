package labels

import "testing"

func TestFromMapSorted(t *testing.T) {
	s := FromMap(map[string]string{"b": "2", "a": "1", "c": "3"})
	if got := s.String(); got != `{a="1",b="2",c="3"}` {
		t.Fatalf("got %s", got)
	}
}

func TestWithAddsInOrder(t *testing.T) {
	s := Set{{"a", "1"}, {"c", "3"}}
	got := s.With("b", "2")
	if got.String() != `{a="1",b="2",c="3"}` {
		t.Fatalf("got %s", got)
	}
	if got := s.With("d", "4").String(); got != `{a="1",c="3",d="4"}` {
		t.Fatalf("got %s", got)
	}
}

func TestWithReplaces(t *testing.T) {
	s := FromStrings("a", "1", "b", "2").With("a", "9")
	if v, _ := s.Get("a"); v != "9" || len(s) != 2 {
		t.Fatalf("got %s", s)
	}
}

func TestWithout(t *testing.T) {
	s := FromStrings("a", "1", "b", "2")
	if got := s.Without("a").String(); got != `{b="2"}` {
		t.Fatalf("got %s", got)
	}
	if got := s.String(); got != `{a="1",b="2"}` {
		t.Fatalf("Without changed its receiver: %s", got)
	}
	if got := s.Without("zz"); !got.Equal(s) {
		t.Fatalf("got %s", got)
	}
}

func TestMerge(t *testing.T) {
	a := FromStrings("a", "1", "b", "2")
	b := FromStrings("b", "3", "c", "4")
	if got := a.Merge(b).String(); got != `{a="1",b="3",c="4"}` {
		t.Fatalf("got %s", got)
	}
}

func TestEscape(t *testing.T) {
	s := FromStrings("path", `C:\x "y"`)
	if got := s.String(); got != `{path="C:\\x \"y\""}` {
		t.Fatalf("got %s", got)
	}
}

func TestBuilder(t *testing.T) {
	b := NewBuilder()
	b.Set("z", "1").Set("a", "2").Set("z", "3").Del("a")
	first := b.Labels()
	b.Reset()
	b.Set("q", "9")
	if first.String() != `{z="3"}` || b.Labels().String() != `{q="9"}` {
		t.Fatalf("got %s and %s", first, b.Labels())
	}
}

func TestMatcher(t *testing.T) {
	s := FromStrings("env", "prod", "route", "/api/v1")
	for text, want := range map[string]bool{
		"env=prod": true, "env!=prod": false, "route=~/api/.*": true, "route!~/api/.*": false, "zone=": true,
	} {
		m, err := ParseMatcher(text)
		if err != nil {
			t.Fatal(err)
		}
		if m.Matches(s) != want {
			t.Errorf("%s: want %v", text, want)
		}
	}
}
