"""telemetry plugins."""
