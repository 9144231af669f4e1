"""Price table: for each zone, weight bands as (max weight in grams, price in cents)."""

BANDS = {
    "DOMESTIC": [(500, 390), (1000, 490), (2000, 590), (5000, 790), (10000, 1190), (31500, 1690)],
    "EU":       [(500, 890), (1000, 1090), (2000, 1390), (5000, 1790), (10000, 2490), (31500, 3690)],
    "UK":       [(500, 990), (1000, 1290), (2000, 1590), (5000, 2190), (10000, 2990), (31500, 4490)],
    "NORDIC":   [(500, 1090), (1000, 1390), (2000, 1690), (5000, 2390), (10000, 3290), (31500, 4990)],
    "WORLD":    [(500, 1490), (1000, 1990), (2000, 2990), (5000, 4490), (10000, 6990), (31500, 9990)],
}

MAX_WEIGHT_G = 31500


def band_price(zone, weight_g):
    """Price in cents of a parcel of `weight_g` grams to `zone`."""
    if weight_g <= 0:
        raise ValueError("weight must be positive")
    if weight_g > MAX_WEIGHT_G:
        raise ValueError(f"parcels over {MAX_WEIGHT_G} g are freight, not parcels")
    for max_g, price in BANDS[zone]:
        if weight_g < max_g:
            return price
    return BANDS[zone][-1][1]
