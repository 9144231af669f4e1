package store

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"example.com/relay/internal/event"
)

func TestMemoryLifecycle(t *testing.T) {
	m := NewMemory(nil)
	for i, id := range []string{"b", "a"} {
		if err := m.Accept(event.Event{ID: id, Seq: uint64(i + 1)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Attempted("a", 1, errors.New("503")); err != nil {
		t.Fatal(err)
	}
	if err := m.Delivered("a", 2); err != nil {
		t.Fatal(err)
	}
	if err := m.Dead("a", 3, nil); err == nil {
		t.Fatal("a final record changed again")
	}
	r, err := m.Get("a")
	if err != nil || r.State != Delivered || r.Attempts != 2 || r.LastError != "503" {
		t.Fatalf("%+v %v", r, err)
	}
	if _, err := m.Get("zz"); !errors.Is(err, ErrNotFound) {
		t.Fatal(err)
	}
	all := m.List(nil)
	if len(all) != 2 || all[0].ID != "b" {
		t.Fatalf("%+v", all)
	}
	st := Pending
	if p := m.List(&st); len(p) != 1 || p[0].ID != "b" {
		t.Fatalf("%+v", p)
	}
}

func TestJournalLines(t *testing.T) {
	var buf bytes.Buffer
	j := &Journal{Inner: NewMemory(nil), W: &buf}
	_ = j.Accept(event.Event{ID: "x", Key: "k", Seq: 1})
	_ = j.Dead("x", 1, errors.New("400"))
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"op":"accept"`) || !strings.Contains(lines[1], `"error":"400"`) {
		t.Fatalf("%q", lines)
	}
}

func TestParseState(t *testing.T) {
	for _, s := range []State{Pending, Delivered, Dead} {
		if got, err := ParseState(s.String()); err != nil || got != s {
			t.Fatalf("%v: %v %v", s, got, err)
		}
	}
}
