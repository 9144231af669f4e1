"""Shipping cost by destination; free above a threshold of discounted goods."""

FLAT_CENTS = {"DE": 490, "AT": 790, "FR": 990}
FREE_ABOVE_CENTS = 5000


def shipping_cents(country, discounted_subtotal_cents, item_count):
    if item_count == 0:
        return 0
    if discounted_subtotal_cents >= FREE_ABOVE_CENTS:
        return 0
    try:
        return FLAT_CENTS[country]
    except KeyError:
        raise ValueError(f"we do not ship to {country}") from None
