"""Hermes contract tariff (price list of the current contract year)."""
from .base import Carrier

HERMES = Carrier(
    name="Hermes",
    zones=("DOMESTIC",),
    steps=((1000, 370), (2000, 440), (5000, 590), (10000, 820), (25000, 1230), (31501, 1690)),
)
