"""Shipping quotes, labels and tracking for the web shop."""
__version__ = "2.3.1"
