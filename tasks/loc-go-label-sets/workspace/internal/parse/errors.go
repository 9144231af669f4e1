package parse

import "fmt"

// A LineError says why a line was refused.
type LineError struct {
	Line   string
	Reason string
}

func (e *LineError) Error() string {
	return fmt.Sprintf("bad line %q: %s", truncate(e.Line, 80), e.Reason)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

func refuse(line, format string, args ...any) error {
	return &LineError{Line: line, Reason: fmt.Sprintf(format, args...)}
}
