package labels

import (
	"fmt"
	"regexp"
	"strings"
)

// A Matcher selects sets by one label.
type Matcher struct {
	Name  string
	Op    string // "=", "!=", "=~", "!~"
	Value string
	re    *regexp.Regexp
}

// ParseMatcher parses name=value, name!=value, name=~regexp or name!~regexp.
func ParseMatcher(text string) (*Matcher, error) {
	for _, op := range []string{"!~", "=~", "!=", "="} {
		if i := strings.Index(text, op); i > 0 {
			m := &Matcher{Name: strings.TrimSpace(text[:i]), Op: op, Value: strings.TrimSpace(text[i+len(op):])}
			if op == "=~" || op == "!~" {
				re, err := regexp.Compile("^(?:" + m.Value + ")$")
				if err != nil {
					return nil, fmt.Errorf("matcher %q: %w", text, err)
				}
				m.re = re
			}
			return m, nil
		}
	}
	return nil, fmt.Errorf("matcher %q: no operator", text)
}

// Matches reports whether s is selected. A missing label has the empty value.
func (m *Matcher) Matches(s Set) bool {
	v, _ := s.Get(m.Name)
	switch m.Op {
	case "=":
		return v == m.Value
	case "!=":
		return v != m.Value
	case "=~":
		return m.re.MatchString(v)
	case "!~":
		return !m.re.MatchString(v)
	}
	return false
}

func (m *Matcher) String() string { return m.Name + m.Op + m.Value }
