"""routing plugins."""
