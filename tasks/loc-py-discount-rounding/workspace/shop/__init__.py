"""A small web-shop core: catalog, carts, pricing and checkout."""

__version__ = "2.4.1"
