"""relay: receives webhooks and delivers them to subscribers with retries."""
