"""Loyalty programme: a percentage off every line, by tier."""

TIER_PERCENT = {"none": 0, "silver": 3, "gold": 5}


def loyalty_percent(customer):
    if customer is None:
        return 0
    return TIER_PERCENT[customer.tier]
