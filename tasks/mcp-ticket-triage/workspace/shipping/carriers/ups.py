"""UPS contract tariff (price list of the current contract year)."""
from .base import Carrier

UPS = Carrier(
    name="UPS",
    zones=("UK", "WORLD"),
    steps=((1000, 890), (2500, 1270), (5000, 1880), (10000, 3100), (20000, 4700), (31501, 6950)),
)
