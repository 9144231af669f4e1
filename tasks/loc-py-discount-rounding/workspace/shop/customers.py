"""Customers and their loyalty tier, which the loyalty programme turns into a discount."""
from dataclasses import dataclass

TIERS = ("none", "silver", "gold")


@dataclass
class Customer:
    customer_id: str
    email: str
    tier: str = "none"
    country: str = "DE"

    def __post_init__(self):
        if self.tier not in TIERS:
            raise ValueError(f"unknown loyalty tier {self.tier!r}")
