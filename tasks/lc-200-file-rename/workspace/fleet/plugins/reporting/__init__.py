"""reporting plugins."""
