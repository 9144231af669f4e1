// Package logx is a small leveled logger writing logfmt lines.
package logx

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"
)

// Level orders messages by importance.
type Level int

const (
	Debug Level = iota
	Info
	Warn
	Error
)

var names = [...]string{"debug", "info", "warn", "error"}

// ParseLevel reads "debug", "info", "warn" or "error".
func ParseLevel(s string) (Level, error) {
	for i, n := range names {
		if strings.EqualFold(s, n) {
			return Level(i), nil
		}
	}
	return Info, fmt.Errorf("unknown log level %q", s)
}

// Logger writes lines at or above Min. A nil *Logger discards everything.
type Logger struct {
	mu  sync.Mutex
	W   io.Writer
	Min Level
	Now func() time.Time
}

// New returns a logger writing to w.
func New(w io.Writer, min Level) *Logger { return &Logger{W: w, Min: min, Now: time.Now} }

func (l *Logger) log(lv Level, msg string, kv map[string]any) {
	if l == nil || lv < l.Min {
		return
	}
	keys := make([]string, 0, len(kv))
	for k := range kv {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	now := time.Now
	if l.Now != nil {
		now = l.Now
	}
	fmt.Fprintf(&b, "ts=%s level=%s msg=%q", now().UTC().Format(time.RFC3339), names[lv], msg)
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%q", k, fmt.Sprint(kv[k]))
	}
	b.WriteByte('\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = io.WriteString(l.W, b.String())
}

func (l *Logger) Debug(msg string, kv map[string]any) { l.log(Debug, msg, kv) }
func (l *Logger) Info(msg string, kv map[string]any)  { l.log(Info, msg, kv) }
func (l *Logger) Warn(msg string, kv map[string]any)  { l.log(Warn, msg, kv) }
func (l *Logger) Error(msg string, kv map[string]any) { l.log(Error, msg, kv) }
