package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"example.com/relay/internal/sink"
)

func TestParseDefaults(t *testing.T) {
	c, err := Parse([]byte(`{"sink": {"url": "http://hooks.internal/relay"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if c.Workers != 4 || c.Listen != ":8080" || c.Retry.MaxAttempts != 5 || c.Sink.TimeoutMS != 10000 {
		t.Fatalf("%+v", c)
	}
	o := c.ServiceOptions(sink.NewMemory(nil))
	if o.Workers != 4 || o.Retry.MaxAttempts != 5 || o.IDPrefix != "evt" {
		t.Fatalf("%+v", o)
	}
	if d := o.Retry.Backoff.Delay(2); d != time.Second {
		t.Fatalf("second backoff %v", d)
	}
}

func TestParseRefuses(t *testing.T) {
	for _, text := range []string{
		`{"workers": 0.5}`,
		`{"workers": 1000}`,
		`{"wokers": 2}`,
		`{"sink": {"url": "ftp://x"}}`,
		`{"retry": {"base_ms": 10, "max_ms": 5}}`,
		`{"retry": {"jitter": 1.5}}`,
		`{"delivery": {"attempt_timeout_ms": -1}}`,
		`{"log_level": "loud"}`,
		`{} {}`,
	} {
		if _, err := Parse([]byte(text)); err == nil {
			t.Errorf("%s: accepted", text)
		}
	}
}

func TestShippedConfigParses(t *testing.T) {
	path := filepath.Join("..", "..", "config", "relay.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(data); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Fatal(err)
	}
}
