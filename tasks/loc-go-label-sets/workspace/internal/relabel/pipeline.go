package relabel

import "tally/internal/labels"

// A Pipeline is a tenant's rules, applied in order.
type Pipeline struct {
	rules []Rule
}

// ParsePipeline parses each rule.
func ParsePipeline(texts []string) (*Pipeline, error) {
	p := &Pipeline{}
	for _, t := range texts {
		r, err := ParseRule(t)
		if err != nil {
			return nil, err
		}
		p.rules = append(p.rules, r)
	}
	return p, nil
}

// Apply runs every rule on s, in order.
func (p *Pipeline) Apply(s labels.Set) labels.Set {
	if p == nil {
		return s
	}
	for _, r := range p.rules {
		s = r.Apply(s)
	}
	return s
}

// Len is the number of rules.
func (p *Pipeline) Len() int {
	if p == nil {
		return 0
	}
	return len(p.rules)
}
