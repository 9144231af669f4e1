"""Placing an order: reserve stock, price the cart, commit, log."""
import itertools

from .checkout import compute_totals
from .errors import ShopError

_ids = itertools.count(1000)


class OrderService:
    def __init__(self, inventory, events):
        self.inventory = inventory
        self.events = events

    def place(self, cart, customer=None, today=None):
        if cart.is_empty():
            raise ShopError("cannot place an empty order")
        reserved = []
        try:
            for line in cart.lines:
                self.inventory.reserve(line.product.sku, line.quantity)
                reserved.append(line)
            totals = compute_totals(cart, customer, today)
        except Exception:
            for line in reserved:
                self.inventory.release(line.product.sku, line.quantity)
            raise
        for line in reserved:
            self.inventory.commit(line.product.sku, line.quantity)
        order_id = f"A-{next(_ids)}"
        self.events.emit("order_placed", order_id=order_id, total=totals.total)
        return order_id, totals
