"""pricing plugins."""
