"""Products and the catalog they live in."""
from dataclasses import dataclass, field

from .errors import UnknownProduct


@dataclass(frozen=True)
class Product:
    sku: str
    name: str
    price_cents: int
    tax_class: str = "standard"
    tags: frozenset = field(default_factory=frozenset)


class Catalog:
    def __init__(self, products=()):
        self._by_sku = {}
        for p in products:
            self.add(p)

    def add(self, product):
        if product.price_cents < 0:
            raise ValueError(f"{product.sku}: negative price")
        self._by_sku[product.sku] = product

    def get(self, sku):
        try:
            return self._by_sku[sku]
        except KeyError:
            raise UnknownProduct(sku) from None

    def __contains__(self, sku):
        return sku in self._by_sku

    def __iter__(self):
        return iter(sorted(self._by_sku.values(), key=lambda p: p.sku))
