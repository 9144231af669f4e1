"""VAT per line, on the discounted line amount. Prices are net."""
from decimal import Decimal

from ..money import from_cents, to_cents

RATES = {
    "DE": {"standard": 19, "reduced": 7, "zero": 0},
    "AT": {"standard": 20, "reduced": 10, "zero": 0},
    "FR": {"standard": 20, "reduced": 5.5, "zero": 0},
}


def rate_for(country, tax_class):
    try:
        return RATES[country][tax_class]
    except KeyError:
        raise ValueError(f"no VAT rate for {country}/{tax_class}") from None


def line_tax(net_cents, country, tax_class):
    rate = Decimal(str(rate_for(country, tax_class)))
    return to_cents(from_cents(net_cents) * rate / 100)
