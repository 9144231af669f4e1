"""Turning a cart into an order summary."""
from dataclasses import dataclass, field

from .pricing import coupons as coupon_rules
from .pricing.discounts import discounts_for
from .pricing.shipping import shipping_cents
from .pricing.tax import line_tax


@dataclass
class Totals:
    subtotal: int = 0
    discount: int = 0
    fixed_discount: int = 0
    tax: int = 0
    shipping: int = 0
    lines: list = field(default_factory=list)

    @property
    def total(self):
        return self.subtotal - self.discount - self.fixed_discount + self.tax + self.shipping


def compute_totals(cart, customer=None, today=None):
    country = customer.country if customer else "DE"
    coupons = [coupon_rules.lookup(code, today) for code in cart.coupon_codes]
    line_discounts = {d.sku: d for d in discounts_for(cart, coupons, customer)}

    totals = Totals()
    for line in cart.lines:
        gross = line.gross_cents
        disc = line_discounts.get(line.product.sku)
        disc_cents = disc.cents if disc else 0
        net = gross - disc_cents
        tax = line_tax(net, country, line.product.tax_class)
        totals.subtotal += gross
        totals.discount += disc_cents
        totals.tax += tax
        totals.lines.append((line.product.sku, line.quantity, gross, disc_cents, tax))

    discounted = totals.subtotal - totals.discount
    for coupon in coupons:
        if coupon.fixed_cents and discounted >= coupon.min_order_cents:
            totals.fixed_discount += min(coupon.fixed_cents, discounted - totals.fixed_discount)

    item_count = sum(line.quantity for line in cart.lines)
    totals.shipping = shipping_cents(country, discounted, item_count)
    return totals
