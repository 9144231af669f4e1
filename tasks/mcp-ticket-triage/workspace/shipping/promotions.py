"""Free shipping (SHIP-120): it waives the band price only; surcharges are still charged."""

FREE_SHIPPING_FROM_CENTS = 10000
FREE_SHIPPING_ZONES = ("DOMESTIC", "EU")


def free_shipping(zone, order_value_cents):
    return zone in FREE_SHIPPING_ZONES and order_value_cents >= FREE_SHIPPING_FROM_CENTS
