"""Shipping labels as the label printers take them (plain text, fixed width)."""
