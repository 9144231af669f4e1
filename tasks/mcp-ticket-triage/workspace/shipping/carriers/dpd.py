"""DPD contract tariff (price list of the current contract year)."""
from .base import Carrier

DPD = Carrier(
    name="DPD",
    zones=("EU",),
    steps=((1000, 610), (3000, 820), (5000, 990), (10000, 1440), (20000, 2100), (31501, 2890)),
)
