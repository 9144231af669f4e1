package parse

import (
	"fmt"
	"strings"
)

// Tags parses a comma-separated list of name:value tags. A tag without a value
// (`canary`) has the value "true". Names are sanitized like metric names.
func Tags(text string) ([]Tag, error) {
	if text == "" {
		return nil, nil
	}
	parts := strings.Split(text, ",")
	out := make([]Tag, 0, len(parts))
	for _, p := range parts {
		if p == "" {
			continue
		}
		name, value := p, "true"
		if i := strings.IndexByte(p, ':'); i >= 0 {
			name, value = p[:i], p[i+1:]
		}
		n, ok := SanitizeName(name)
		if !ok {
			return nil, fmt.Errorf("invalid tag name %q", name)
		}
		if strings.HasPrefix(n, "__") {
			return nil, fmt.Errorf("tag name %q is reserved", name)
		}
		out = append(out, Tag{Name: n, Value: value})
	}
	return out, nil
}
