// Package parse reads the statsd-style lines tally ingests:
//
//	<name>:<value>|<type>[|@<rate>][|#<tag>:<value>,...]
//
// where type is c (counter), g (gauge), ms or h (a histogram observation).
package parse

import (
	"strconv"
	"strings"

	"tally/internal/agg"
)

// A Tag is one name:value of a line, in the order the line gives them.
type Tag struct {
	Name  string
	Value string
}

// A Metric is one parsed line.
type Metric struct {
	Name  string
	Value float64
	Kind  agg.Kind
	Rate  float64 // the sample rate, 1 when the line gives none
	Tags  []Tag
}

// Line parses one line.
func Line(line string) (Metric, error) {
	var m Metric
	line = strings.TrimSpace(line)
	colon := strings.IndexByte(line, ':')
	if colon <= 0 {
		return m, refuse(line, "no metric name")
	}
	name, ok := SanitizeName(line[:colon])
	if !ok {
		return m, refuse(line, "invalid metric name %q", line[:colon])
	}
	m.Name = name
	fields := strings.Split(line[colon+1:], "|")
	if len(fields) < 2 {
		return m, refuse(line, "no type")
	}
	v, err := strconv.ParseFloat(fields[0], 64)
	if err != nil {
		return m, refuse(line, "value %q is not a number", fields[0])
	}
	m.Value = v
	switch fields[1] {
	case "c":
		m.Kind = agg.Counter
	case "g":
		m.Kind = agg.Gauge
	case "ms", "h":
		m.Kind = agg.Histogram
	default:
		return m, refuse(line, "unknown type %q", fields[1])
	}
	m.Rate = 1
	for _, f := range fields[2:] {
		switch {
		case strings.HasPrefix(f, "@"):
			r, err := strconv.ParseFloat(f[1:], 64)
			if err != nil || r <= 0 || r > 1 {
				return m, refuse(line, "sample rate %q", f[1:])
			}
			m.Rate = r
		case strings.HasPrefix(f, "#"):
			tags, err := Tags(f[1:])
			if err != nil {
				return m, refuse(line, "%v", err)
			}
			m.Tags = append(m.Tags, tags...)
		default:
			return m, refuse(line, "unknown field %q", f)
		}
	}
	if m.Kind == agg.Counter && m.Value < 0 {
		return m, refuse(line, "negative counter increment")
	}
	return m, nil
}

// SanitizeName turns a statsd name into a series name: dots and dashes become
// underscores; anything else outside [a-zA-Z0-9_] refuses the name.
func SanitizeName(raw string) (string, bool) {
	if raw == "" {
		return "", false
	}
	b := []byte(raw)
	for i, c := range b {
		switch {
		case c == '.' || c == '-':
			b[i] = '_'
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case c >= '0' && c <= '9':
			if i == 0 {
				return "", false
			}
		default:
			return "", false
		}
	}
	return string(b), true
}
