package logx

import (
	"strings"
	"testing"
	"time"
)

func TestLogfmt(t *testing.T) {
	var sb strings.Builder
	l := New(&sb, Info)
	l.Now = func() time.Time { return time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC) }
	l.Debug("hidden", nil)
	l.Warn("retrying", map[string]any{"id": "evt-1", "attempt": 2})
	want := "ts=2024-01-02T03:04:05Z level=warn msg=\"retrying\" attempt=\"2\" id=\"evt-1\"\n"
	if sb.String() != want {
		t.Fatalf("got %q", sb.String())
	}
	var nilLogger *Logger
	nilLogger.Error("nothing", nil)
	if _, err := ParseLevel("WARN"); err != nil {
		t.Fatal(err)
	}
}
