package config

// Defaults fills in every field left at its zero value.
func (c *Config) Defaults() {
	if c.Listen == "" {
		c.Listen = ":8080"
	}
	if c.Workers == 0 {
		c.Workers = 4
	}
	if c.IDPrefix == "" {
		c.IDPrefix = "evt"
	}
	if c.Delivery.Ordering == "" {
		c.Delivery.Ordering = "unordered"
	}
	if c.LogLevel == "" {
		c.LogLevel = "info"
	}
	if c.Sink.TimeoutMS == 0 {
		c.Sink.TimeoutMS = 10000
	}
	if c.Retry.MaxAttempts == 0 {
		c.Retry.MaxAttempts = 5
	}
	if c.Retry.BaseMS == 0 {
		c.Retry.BaseMS = 500
	}
	if c.Retry.MaxMS == 0 {
		c.Retry.MaxMS = 60000
	}
	if c.Limits.PerTenantRate > 0 && c.Limits.Burst == 0 {
		c.Limits.Burst = int(c.Limits.PerTenantRate) + 1
	}
}
