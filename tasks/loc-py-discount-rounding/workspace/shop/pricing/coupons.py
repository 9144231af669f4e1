"""Coupon codes and what they grant."""
from dataclasses import dataclass
from datetime import date

from ..errors import InvalidCoupon


@dataclass(frozen=True)
class Coupon:
    code: str
    percent: int = 0          # percentage off each eligible line
    fixed_cents: int = 0      # amount off the order, after percentages
    tag: str = ""             # only lines whose product has this tag ("" = all)
    expires: date = date(2099, 12, 31)
    min_order_cents: int = 0


COUPONS = {
    "SPRING10": Coupon("SPRING10", percent=10),
    "STICKERS25": Coupon("STICKERS25", percent=25, tag="stickers"),
    "WELCOME5": Coupon("WELCOME5", fixed_cents=500, min_order_cents=2500),
    "HALFTEA": Coupon("HALFTEA", percent=50, tag="tea"),
    "WINTER15": Coupon("WINTER15", percent=15, expires=date(2024, 3, 1)),
}


def lookup(code, today=None):
    today = today or date.today()
    coupon = COUPONS.get(code)
    if coupon is None:
        raise InvalidCoupon(code, "no such coupon")
    if today > coupon.expires:
        raise InvalidCoupon(code, "expired")
    return coupon


def applies_to(coupon, product):
    return not coupon.tag or coupon.tag in product.tags
