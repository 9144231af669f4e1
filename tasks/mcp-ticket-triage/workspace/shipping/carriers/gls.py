"""GLS contract tariff (price list of the current contract year)."""
from .base import Carrier

GLS = Carrier(
    name="GLS",
    zones=("EU",),
    steps=((2000, 720), (5000, 1030), (15000, 1620), (31501, 2760)),
)
