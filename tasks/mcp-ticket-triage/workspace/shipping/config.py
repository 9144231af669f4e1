"""Limits and amounts from the published price list (docs/pricing.md)."""

# Heavier than this is freight, which the shop cannot book.
MAX_PARCEL_WEIGHT_G = 31500

# Volumetric weight: length x width x height in cm divided by this, in kg.
VOLUMETRIC_DIVISOR_CM3_PER_KG = 5000

HEAVY_OVER_G = 20000
HEAVY_SURCHARGE_CENTS = 1500

OVERSIZE_LONGEST_SIDE_OVER_CM = 120
OVERSIZE_SURCHARGE_CENTS = 2500

# Longest side a carrier accepts at all.
MAX_SIDE_CM = 175
