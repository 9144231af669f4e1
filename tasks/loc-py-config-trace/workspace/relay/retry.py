"""Retry schedule for a delivery: exponential backoff from the configured base."""


def schedule(delivery):
    """Delays (seconds) before each retry."""
    return [delivery.backoff_s * (2 ** attempt) for attempt in range(delivery.retries)]
