"""VAT per line, on the discounted line amount. Prices are net."""
from ..money import percent_of

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
    return percent_of(net_cents, rate_for(country, tax_class))
