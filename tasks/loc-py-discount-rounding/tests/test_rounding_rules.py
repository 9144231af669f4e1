import os
import random
from datetime import date
from decimal import Decimal, ROUND_HALF_UP

import pytest

from shop.cart import Cart
from shop.catalog import Catalog, Product
from shop.checkout import compute_totals
from shop.customers import Customer
from shop.pricing import discounts

TODAY = date(2025, 5, 1)


def half_up_percent(cents, percent):
    exact = Decimal(cents) * Decimal(str(percent)) / 100
    return int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def catalog():
    return Catalog([
        Product("STK", "Sticker pack", 35, tags=frozenset({"stickers"})),
        Product("HOLO", "Holo sticker", 115, tags=frozenset({"stickers"})),
        Product("TEA", "Green tea", 645, "reduced", frozenset({"tea"})),
        Product("CHAI", "Chai", 999, "reduced", frozenset({"tea"})),
        Product("TSH", "T-shirt", 1999),
        Product("MUG", "Mug", 1290),
        Product("GIFT", "Gift card", 2500, "zero"),
    ])


def cart_with(items, coupons=()):
    cart = Cart(catalog())
    for sku, qty in items:
        cart.add(sku, qty)
    for c in coupons:
        cart.apply_coupon(c)
    return cart


@pytest.mark.parametrize("unit,qty,percent", [
    (35, 3, 10),      # 10.5 -> 11, per-unit rounding gives 12
    (35, 7, 10),      # 24.5 -> 25, banker's rounding gives 24
    (115, 1, 50),     # 57.5 -> 58
    (115, 3, 25),     # 86.25 -> 86
    (1999, 3, 15),    # 899.55 -> 900
    (645, 5, 3),      # 96.75 -> 97
    (999, 4, 5),      # 199.8 -> 200
    (1290, 1, 0),
])
def test_line_discount_is_rounded_once_half_up(unit, qty, percent):
    assert discounts.line_discount(unit, qty, percent) == half_up_percent(unit * qty, percent)


def test_line_discount_matches_rule_on_many_lines():
    rng = random.Random(1043)
    for _ in range(3000):
        unit = rng.randint(1, 5000)
        qty = rng.randint(1, 40)
        percent = rng.choice([3, 5, 10, 15, 25, 50])
        assert discounts.line_discount(unit, qty, percent) == half_up_percent(unit * qty, percent), (unit, qty, percent)


def test_reported_sticker_order_total():
    t = compute_totals(cart_with([("STK", 3)], ["SPRING10"]), today=TODAY)
    assert t.subtotal == 105
    assert t.discount == 11
    assert t.tax == half_up_percent(94, 19)
    assert t.shipping == 490
    assert t.total == 105 - 11 + 18 + 490


def test_half_cent_rounds_up_end_to_end():
    t = compute_totals(cart_with([("STK", 7)], ["SPRING10"]), today=TODAY)
    assert t.discount == 25
    assert t.tax == half_up_percent(245 - 25, 19)


def test_tagged_coupon_only_touches_tagged_lines():
    t = compute_totals(cart_with([("HOLO", 3), ("MUG", 1)], ["STICKERS25"]), today=TODAY)
    assert t.discount == 86
    assert [line[3] for line in t.lines] == [86, 0]


def test_loyalty_and_coupon_do_not_stack():
    gold = Customer("c1", "c1@example.invalid", "gold", "DE")
    t = compute_totals(cart_with([("TSH", 3), ("TEA", 5)], ["HALFTEA"]), gold, today=TODAY)
    # T-shirts: gold 5% of 59.97 -> 3.00 (2.9985); tea: HALFTEA 50% of 32.25 -> 16.13
    assert [line[3] for line in t.lines] == [300, 1613]
    assert t.discount == 1913
    assert t.tax == half_up_percent(5997 - 300, 19) + half_up_percent(3225 - 1613, 7)
    assert t.shipping == 0


def test_french_reduced_rate_and_fixed_coupon_unchanged():
    silver = Customer("c2", "c2@example.invalid", "silver", "FR")
    t = compute_totals(cart_with([("CHAI", 3), ("GIFT", 1)], ["WELCOME5"]), silver, today=TODAY)
    chai_disc = half_up_percent(2997, 3)   # 89.91 -> 90
    gift_disc = half_up_percent(2500, 3)   # 75
    assert t.discount == chai_disc + gift_disc
    assert t.tax == half_up_percent(2997 - chai_disc, 5.5)
    assert t.fixed_discount == 500
    assert t.shipping == 0
    assert t.total == 5497 - chai_disc - gift_disc - 500 + t.tax


def test_no_discount_means_no_discount_lines():
    t = compute_totals(cart_with([("MUG", 2)]), today=TODAY)
    assert t.discount == 0 and t.lines[0][3] == 0
    assert t.total == 2580 + half_up_percent(2580, 19) + 490


def test_shipping_threshold_uses_discounted_subtotal():
    # 3 x 19.99 = 59.97, SPRING10 -> 6.00 off (5.997) -> 53.97 still >= 50
    t = compute_totals(cart_with([("TSH", 3)], ["SPRING10"]), today=TODAY)
    assert t.discount == 600 and t.shipping == 0
    # 2 x 25.00 gift cards, 10% off -> 45.00 < 50 -> pays shipping
    t = compute_totals(cart_with([("GIFT", 2)], ["SPRING10"]), today=TODAY)
    assert t.discount == 500 and t.shipping == 490
