// Package labels holds the label sets that identify a series.
package labels

import (
	"sort"
	"strings"
)

// A Label is one name and its value.
type Label struct {
	Name  string
	Value string
}

// A Set is a list of labels sorted by name, each name at most once.
type Set []Label

// extraLabels is the room FromMap leaves for the labels a series usually gains
// after its tenant's (the line's tags, then the export's).
const extraLabels = 4

// FromMap makes a set of m's labels.
func FromMap(m map[string]string) Set {
	s := make(Set, 0, len(m)+extraLabels)
	for name, value := range m {
		s = append(s, Label{Name: name, Value: value})
	}
	sort.Slice(s, func(i, j int) bool { return s[i].Name < s[j].Name })
	return s
}

// FromStrings makes a set of name, value pairs; a later pair wins over an earlier one
// of the same name.
func FromStrings(pairs ...string) Set {
	if len(pairs)%2 != 0 {
		panic("labels.FromStrings: odd number of strings")
	}
	m := make(map[string]string, len(pairs)/2)
	for i := 0; i < len(pairs); i += 2 {
		m[pairs[i]] = pairs[i+1]
	}
	return FromMap(m)
}

func (s Set) index(name string) int {
	return sort.Search(len(s), func(i int) bool { return s[i].Name >= name })
}

// Get returns the value of name, and whether s has it.
func (s Set) Get(name string) (string, bool) {
	i := s.index(name)
	if i < len(s) && s[i].Name == name {
		return s[i].Value, true
	}
	return "", false
}

// Has reports whether s has a label called name.
func (s Set) Has(name string) bool {
	_, ok := s.Get(name)
	return ok
}

// With returns s with name set to value.
func (s Set) With(name, value string) Set {
	i := s.index(name)
	if i == len(s) {
		return append(s, Label{Name: name, Value: value})
	}
	out := make(Set, 0, len(s)+1)
	out = append(out, s[:i]...)
	out = append(out, Label{Name: name, Value: value})
	if s[i].Name == name {
		i++
	}
	return append(out, s[i:]...)
}

// Without returns s without the label called name.
func (s Set) Without(name string) Set {
	i := s.index(name)
	if i == len(s) || s[i].Name != name {
		return s
	}
	out := make(Set, 0, len(s)-1)
	out = append(out, s[:i]...)
	return append(out, s[i+1:]...)
}

// Merge returns the labels of s and o; o's value wins for a name both have.
func (s Set) Merge(o Set) Set {
	out := make(Set, 0, len(s)+len(o))
	i, j := 0, 0
	for i < len(s) && j < len(o) {
		switch {
		case s[i].Name < o[j].Name:
			out = append(out, s[i])
			i++
		case s[i].Name > o[j].Name:
			out = append(out, o[j])
			j++
		default:
			out = append(out, o[j])
			i++
			j++
		}
	}
	out = append(out, s[i:]...)
	return append(out, o[j:]...)
}

// Clone returns a copy of s that shares nothing with it.
func (s Set) Clone() Set {
	if s == nil {
		return nil
	}
	out := make(Set, len(s))
	copy(out, s)
	return out
}

// Equal reports whether s and o hold the same labels.
func (s Set) Equal(o Set) bool {
	if len(s) != len(o) {
		return false
	}
	for i := range s {
		if s[i] != o[i] {
			return false
		}
	}
	return true
}

// Names returns the label names in order.
func (s Set) Names() []string {
	out := make([]string, len(s))
	for i, l := range s {
		out[i] = l.Name
	}
	return out
}

// Map returns the labels as a map.
func (s Set) Map() map[string]string {
	m := make(map[string]string, len(s))
	for _, l := range s {
		m[l.Name] = l.Value
	}
	return m
}

// String renders s as {a="1",b="2"}.
func (s Set) String() string {
	var b strings.Builder
	b.WriteByte('{')
	for i, l := range s {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(l.Name)
		b.WriteString(`="`)
		b.WriteString(EscapeValue(l.Value))
		b.WriteByte('"')
	}
	b.WriteByte('}')
	return b.String()
}

// EscapeValue escapes a label value for the text format: backslash, double quote and
// line feed.
func EscapeValue(v string) string {
	if !strings.ContainsAny(v, "\\\"\n") {
		return v
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return r.Replace(v)
}
