"""PostNord contract tariff (price list of the current contract year)."""
from .base import Carrier

POSTNORD = Carrier(
    name="PostNord",
    zones=("NORDIC",),
    steps=((1000, 780), (2000, 990), (5000, 1420), (10000, 2050), (20000, 2990), (31501, 3980)),
)
