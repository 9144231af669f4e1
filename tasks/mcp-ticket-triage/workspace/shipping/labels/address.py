"""Recipient addresses, in the line order each destination's post expects."""
from dataclasses import dataclass

LINE_WIDTH = 35
POSTCODE_FIRST = ("DE", "AT", "FR", "IT", "ES", "NL", "BE", "DK", "SE", "NO", "IS", "PL")


@dataclass(frozen=True)
class Address:
    name: str
    street: str
    postcode: str
    city: str
    country: str


def address_lines(a):
    city_line = f"{a.postcode} {a.city}" if a.country in POSTCODE_FIRST else f"{a.city} {a.postcode}"
    lines = [a.name, a.street, city_line, a.country]
    return [line[:LINE_WIDTH] for line in lines]
