"""Amounts are integers in minor units (cents); these helpers turn them into text and back."""
from decimal import ROUND_HALF_UP, Decimal

from .currency import exponent_for, symbol_for


def format_money(cents, *, currency, symbol=False):
    """Format an amount of minor units with thousands separators, e.g. 123456 -> "1,234.56",
    -150 -> "-1.50" (or "€1,234.56" and "-€1.50" with symbol=True).

    The number of decimals follows the currency: JPY has none, KWD has three.
    `currency` is required and keyword-only: an amount means nothing without it, and
    the old default (EUR) printed other currencies' amounts as euros.
    """
    # divmod floors toward minus infinity: divmod(-150, 100) == (-2, 50), which printed
    # credit notes as "-2.50". Format the magnitude and put the sign in front instead.
    exponent = exponent_for(currency)
    sign = "-" if cents < 0 else ""
    units, minor = divmod(abs(cents), 10 ** exponent)
    text = f"{units:,}"
    if exponent:
        text += f".{minor:0{exponent}d}"
    if symbol:
        text = symbol_for(currency) + text
    return sign + text


def parse_amount(text, currency="EUR"):
    """Parse "1,234.56", "19" or "-1.50" into minor units of `currency` ("1.5" KWD -> 1500)."""
    exponent = exponent_for(currency)
    text = text.strip()
    sign = -1 if text.startswith("-") else 1
    units, _, minor = text.lstrip("-").replace(",", "").partition(".")
    return sign * (int(units) * 10 ** exponent + int((minor + "0" * exponent)[:exponent] or 0))


def round_half_up(value):
    """Round to a whole number of minor units, halves away from zero (2.5 -> 3, -2.5 -> -3).

    Python's round() rounds halves to even (round(Decimal("12.5")) == 12), which lost a cent
    on every other VAT line. Every amount the package computes is rounded with this.
    """
    return int(Decimal(value).quantize(Decimal(1), rounding=ROUND_HALF_UP))
