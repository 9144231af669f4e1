"""safety plugins."""
