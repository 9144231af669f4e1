package relabel

import (
	"fmt"
	"strings"

	"tally/internal/labels"
)

// ParseRule parses one rule:
//
//	set NAME VALUE | drop NAME | rename FROM TO | default NAME VALUE | when MATCHER RULE
func ParseRule(text string) (Rule, error) {
	f := strings.Fields(text)
	if len(f) == 0 {
		return nil, fmt.Errorf("relabel: empty rule")
	}
	want := func(n int) error {
		if len(f) != n {
			return fmt.Errorf("relabel: %q needs %d words", text, n)
		}
		return nil
	}
	switch f[0] {
	case "set", "default":
		if err := want(3); err != nil {
			return nil, err
		}
		if err := checkName(f[1]); err != nil {
			return nil, err
		}
		if f[0] == "set" {
			return SetRule{Name: f[1], Value: f[2]}, nil
		}
		return DefaultRule{Name: f[1], Value: f[2]}, nil
	case "drop":
		if err := want(2); err != nil {
			return nil, err
		}
		return DropRule{Name: f[1]}, nil
	case "rename":
		if err := want(3); err != nil {
			return nil, err
		}
		if err := checkName(f[2]); err != nil {
			return nil, err
		}
		return RenameRule{From: f[1], To: f[2]}, nil
	case "when":
		if len(f) < 3 {
			return nil, fmt.Errorf("relabel: %q needs a matcher and a rule", text)
		}
		m, err := labels.ParseMatcher(f[1])
		if err != nil {
			return nil, err
		}
		then, err := ParseRule(strings.Join(f[2:], " "))
		if err != nil {
			return nil, err
		}
		return WhenRule{Match: m, Then: then}, nil
	}
	return nil, fmt.Errorf("relabel: unknown rule %q", f[0])
}

func checkName(n string) error {
	if n == "job" || n == "le" {
		return fmt.Errorf("relabel: the label %q cannot be set by a rule", n)
	}
	return nil
}
