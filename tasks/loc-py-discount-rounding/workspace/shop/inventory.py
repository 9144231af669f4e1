"""Stock levels. Reservations are released when a cart is abandoned."""
from .errors import OutOfStock


class Inventory:
    def __init__(self, levels=None):
        self._levels = dict(levels or {})
        self._reserved = {}

    def available(self, sku):
        return self._levels.get(sku, 0) - self._reserved.get(sku, 0)

    def reserve(self, sku, qty):
        if qty > self.available(sku):
            raise OutOfStock(sku, qty, self.available(sku))
        self._reserved[sku] = self._reserved.get(sku, 0) + qty

    def release(self, sku, qty):
        self._reserved[sku] = max(0, self._reserved.get(sku, 0) - qty)

    def commit(self, sku, qty):
        self.release(sku, qty)
        self._levels[sku] = self._levels.get(sku, 0) - qty
