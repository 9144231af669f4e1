package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"example.com/relay/internal/logx"
	"example.com/relay/internal/relay"
	"example.com/relay/internal/retry"
	"example.com/relay/internal/sink"
)

// Parse reads a configuration file's contents: unknown fields are errors, missing ones
// get their defaults, and the result is validated.
func Parse(data []byte) (*Config, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var c Config
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	if dec.More() {
		return nil, errors.New("config: trailing data after the JSON object")
	}
	c.Defaults()
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &c, nil
}

// Load reads and parses the file at path.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	c, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// Validate reports the first invalid field.
func (c *Config) Validate() error {
	var problems []string
	if c.Workers < 1 || c.Workers > 256 {
		problems = append(problems, fmt.Sprintf("workers: %d is not in 1..256", c.Workers))
	}
	if c.Sink.URL != "" {
		u, err := url.Parse(c.Sink.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			problems = append(problems, fmt.Sprintf("sink.url: %q is not an http(s) URL", c.Sink.URL))
		}
	}
	if c.Retry.MaxAttempts < 1 {
		problems = append(problems, "retry.max_attempts: must be at least 1")
	}
	if c.Retry.BaseMS < 0 || c.Retry.MaxMS < c.Retry.BaseMS {
		problems = append(problems, "retry: need 0 <= base_ms <= max_ms")
	}
	if c.Retry.Jitter < 0 || c.Retry.Jitter >= 1 {
		problems = append(problems, "retry.jitter: must be in [0, 1)")
	}
	if c.Delivery.AttemptTimeoutMS < 0 {
		problems = append(problems, "delivery.attempt_timeout_ms: must not be negative")
	}
	if _, err := c.ordering(); err != nil {
		problems = append(problems, err.Error())
	}
	if c.Limits.PerTenantRate < 0 || c.Limits.Burst < 0 {
		problems = append(problems, "limits: must not be negative")
	}
	if _, err := logx.ParseLevel(c.LogLevel); err != nil {
		problems = append(problems, "log_level: "+err.Error())
	}
	if len(problems) > 0 {
		return errors.New("config: " + strings.Join(problems, "; "))
	}
	return nil
}

func (c *Config) ordering() (relay.Ordering, error) {
	switch c.Delivery.Ordering {
	case "", "unordered":
		return relay.Unordered, nil
	case "per_key":
		return relay.PerKey, nil
	}
	return relay.Unordered, fmt.Errorf("delivery.ordering: %q is not \"unordered\" or \"per_key\"", c.Delivery.Ordering)
}

// RetryPolicy is the configured retry policy.
func (c *Config) RetryPolicy() retry.Policy {
	var b retry.Backoff = retry.Exponential{
		Base: time.Duration(c.Retry.BaseMS) * time.Millisecond,
		Max:  time.Duration(c.Retry.MaxMS) * time.Millisecond,
	}
	if c.Retry.Jitter > 0 {
		b = retry.NewJitter(b, c.Retry.Jitter, time.Now().UnixNano())
	}
	return retry.Policy{MaxAttempts: c.Retry.MaxAttempts, Backoff: b}
}

// HTTPSink is the configured sink.
func (c *Config) HTTPSink() sink.Sink {
	return &sink.HTTP{URL: c.Sink.URL, Timeout: time.Duration(c.Sink.TimeoutMS) * time.Millisecond}
}

// ServiceOptions are the relay options this file describes, delivering to s. The
// caller adds the store, metrics and logger.
func (c *Config) ServiceOptions(s sink.Sink) relay.Options {
	ordering, _ := c.ordering() // Parse has validated it
	return relay.Options{
		Workers:        c.Workers,
		Sink:           s,
		Retry:          c.RetryPolicy(),
		AttemptTimeout: time.Duration(c.Delivery.AttemptTimeoutMS) * time.Millisecond,
		IDPrefix:       c.IDPrefix,
		Ordering:       ordering,
	}
}
