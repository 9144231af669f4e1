// Package relabel applies a tenant's relabel rules to a series' labels.
package relabel

import "tally/internal/labels"

// A Rule changes a label set.
type Rule interface {
	Apply(labels.Set) labels.Set
	String() string
}

// SetRule gives a label a value.
type SetRule struct{ Name, Value string }

func (r SetRule) Apply(s labels.Set) labels.Set { return s.With(r.Name, r.Value) }
func (r SetRule) String() string                { return "set " + r.Name + " " + r.Value }

// DropRule removes a label.
type DropRule struct{ Name string }

func (r DropRule) Apply(s labels.Set) labels.Set { return s.Without(r.Name) }
func (r DropRule) String() string                { return "drop " + r.Name }

// RenameRule moves a label's value to another name, replacing that one.
type RenameRule struct{ From, To string }

func (r RenameRule) Apply(s labels.Set) labels.Set {
	v, ok := s.Get(r.From)
	if !ok {
		return s
	}
	return s.Without(r.From).With(r.To, v)
}
func (r RenameRule) String() string { return "rename " + r.From + " " + r.To }

// DefaultRule gives a label a value when the set has none.
type DefaultRule struct{ Name, Value string }

func (r DefaultRule) Apply(s labels.Set) labels.Set {
	if s.Has(r.Name) {
		return s
	}
	return s.With(r.Name, r.Value)
}
func (r DefaultRule) String() string { return "default " + r.Name + " " + r.Value }

// WhenRule applies its rule to the sets a matcher selects.
type WhenRule struct {
	Match *labels.Matcher
	Then  Rule
}

func (r WhenRule) Apply(s labels.Set) labels.Set {
	if !r.Match.Matches(s) {
		return s
	}
	return r.Then.Apply(s)
}
func (r WhenRule) String() string { return "when " + r.Match.String() + " " + r.Then.String() }
