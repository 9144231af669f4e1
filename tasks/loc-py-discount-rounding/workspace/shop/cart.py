"""The shopping cart: lines of (product, quantity)."""
from dataclasses import dataclass


@dataclass
class LineItem:
    product: object
    quantity: int

    @property
    def gross_cents(self):
        return self.product.price_cents * self.quantity


class Cart:
    def __init__(self, catalog):
        self._catalog = catalog
        self._lines = {}
        self.coupon_codes = []

    def add(self, sku, quantity=1):
        if quantity <= 0:
            raise ValueError("quantity must be positive")
        product = self._catalog.get(sku)
        line = self._lines.get(sku)
        if line is None:
            self._lines[sku] = LineItem(product, quantity)
        else:
            line.quantity += quantity

    def remove(self, sku):
        self._lines.pop(sku, None)

    def apply_coupon(self, code):
        code = code.strip().upper()
        if code not in self.coupon_codes:
            self.coupon_codes.append(code)

    @property
    def lines(self):
        return list(self._lines.values())

    def is_empty(self):
        return not self._lines
