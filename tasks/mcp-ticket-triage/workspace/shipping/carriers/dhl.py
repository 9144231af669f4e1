"""DHL contract tariff (price list of the current contract year)."""
from .base import Carrier

DHL = Carrier(
    name="DHL",
    zones=("DOMESTIC",),
    steps=((2000, 420), (5000, 560), (10000, 790), (20000, 1150), (31501, 1590)),
)
