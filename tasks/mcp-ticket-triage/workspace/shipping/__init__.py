"""Shipping quotes for the web shop: weight bands per destination zone."""
__version__ = "2.3.1"
