package nabhidden

import (
	"testing"

	"example.com/relay/internal/config"
	"example.com/relay/internal/relay"
)

func TestConfigOrdering(t *testing.T) {
	for text, want := range map[string]relay.Ordering{
		`{"delivery": {"ordering": "per_key"}}`:                             relay.PerKey,
		`{"delivery": {"ordering": "unordered", "attempt_timeout_ms": 50}}`: relay.Unordered,
		`{"delivery": {"attempt_timeout_ms": 50}}`:                          relay.Unordered,
		`{}`: relay.Unordered,
	} {
		c, err := config.Parse([]byte(text))
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if got := c.ServiceOptions(newSink(false, nil)).Ordering; got != want {
			t.Errorf("%s: Ordering %v, want %v", text, got, want)
		}
	}
	for _, text := range []string{
		`{"delivery": {"ordering": "fifo"}}`,
		`{"delivery": {"ordering": "PER_KEY"}}`,
		`{"delivery": {"ordering": 1}}`,
	} {
		if _, err := config.Parse([]byte(text)); err == nil {
			t.Errorf("%s: accepted", text)
		}
	}
	if relay.Unordered == relay.PerKey {
		t.Fatal("Unordered and PerKey are the same value")
	}
	var zero relay.Options
	if zero.Ordering != relay.Unordered {
		t.Fatal("the zero Options are not Unordered")
	}
}
