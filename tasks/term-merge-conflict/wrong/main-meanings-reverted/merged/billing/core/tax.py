"""VAT per tax category."""
from decimal import Decimal

from ..money import round_half_up

RATES = {
    "standard": Decimal("0.24"),
    "reduced": Decimal("0.14"),
    "books": Decimal("0.10"),
    "exempt": Decimal("0"),
}


def rate_for(category):
    """The VAT rate of `category` as a fraction, e.g. Decimal("0.24")."""
    try:
        return RATES[category]
    except KeyError:
        raise ValueError(f"unknown tax category {category!r}") from None


def tax_cents(net_cents, category):
    """VAT on a net amount, rounded to whole minor units."""
    return round_half_up(net_cents * rate_for(category))


def line_tax(line):
    return tax_cents(line.cents, line.tax_category)
