"""The shipping quote shown at checkout."""
from dataclasses import dataclass

from .rates import band_price
from .zones import normalize_zone

# Orders at or above this value (in cents) ship for free within DOMESTIC and EU.
FREE_SHIPPING_FROM_CENTS = 10000
FREE_SHIPPING_ZONES = ("DOMESTIC", "EU")


@dataclass(frozen=True)
class Quote:
    zone: str
    weight_g: int
    price_cents: int
    free: bool


def quote(zone, weight_g, order_value_cents=0):
    """Quote for a parcel; free shipping applies above the order-value threshold."""
    zone = normalize_zone(zone)
    price = band_price(zone, weight_g)
    free = zone in FREE_SHIPPING_ZONES and order_value_cents >= FREE_SHIPPING_FROM_CENTS
    return Quote(zone=zone, weight_g=weight_g, price_cents=0 if free else price, free=free)
