"""Line discounts: coupons and loyalty percentages applied to each cart line."""
from dataclasses import dataclass

from . import coupons as coupon_rules
from .loyalty import loyalty_percent


@dataclass
class LineDiscount:
    sku: str
    source: str
    cents: int


def line_discount(unit_cents, quantity, percent):
    """Discount in cents for `quantity` units at `unit_cents` with `percent` off."""
    if percent <= 0:
        return 0
    per_unit = round(unit_cents * percent / 100)
    return per_unit * quantity


def best_percent(line, coupons, customer):
    """Coupons and loyalty do not stack on a line: the customer gets the best one."""
    best = (loyalty_percent(customer), "loyalty")
    for coupon in coupons:
        if coupon.percent and coupon_rules.applies_to(coupon, line.product):
            if coupon.percent > best[0]:
                best = (coupon.percent, coupon.code)
    return best


def discounts_for(cart, coupons, customer=None):
    result = []
    for line in cart.lines:
        percent, source = best_percent(line, coupons, customer)
        cents = line_discount(line.product.price_cents, line.quantity, percent)
        if cents:
            result.append(LineDiscount(line.product.sku, source, cents))
    return result
