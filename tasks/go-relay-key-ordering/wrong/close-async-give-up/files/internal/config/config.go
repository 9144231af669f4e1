// Package config reads relayd's JSON configuration file.
package config

// Config is the whole file. Durations are in milliseconds.
type Config struct {
	// Listen is the HTTP address of the API (default ":8080").
	Listen string `json:"listen"`
	// Workers is the number of concurrent deliveries (default 4).
	Workers int `json:"workers"`
	// IDPrefix starts every event ID (default "evt").
	IDPrefix string `json:"id_prefix"`
	// Journal, if set, is a file every state change is appended to.
	Journal  string `json:"journal"`
	LogLevel string `json:"log_level"`

	Sink     SinkConfig     `json:"sink"`
	Retry    RetryConfig    `json:"retry"`
	Delivery DeliveryConfig `json:"delivery"`
	Limits   LimitsConfig   `json:"limits"`
}

// SinkConfig is where events go.
type SinkConfig struct {
	URL       string `json:"url"`
	TimeoutMS int    `json:"timeout_ms"`
}

// RetryConfig is the retry policy: exponential backoff from BaseMS up to MaxMS.
type RetryConfig struct {
	MaxAttempts int     `json:"max_attempts"`
	BaseMS      int     `json:"base_ms"`
	MaxMS       int     `json:"max_ms"`
	Jitter      float64 `json:"jitter"`
}

// DeliveryConfig tunes the dispatcher.
type DeliveryConfig struct {
	// AttemptTimeoutMS bounds one delivery attempt (0: the sink's own timeout only).
	AttemptTimeoutMS int `json:"attempt_timeout_ms"`
	// Ordering is "unordered" (the default) or "per_key": events that share a key are
	// delivered one at a time, in the order they were accepted.
	Ordering string `json:"ordering"`
}

// LimitsConfig is the per-tenant publish rate limit of the HTTP API.
type LimitsConfig struct {
	// PerTenantRate is events per second per X-Tenant header (0: unlimited).
	PerTenantRate float64 `json:"per_tenant_rate"`
	Burst         int     `json:"burst"`
}
