"""Formatting of cent amounts for receipts and e-mails."""
from .money import from_cents

SYMBOLS = {"EUR": "\u20ac", "USD": "$", "GBP": "\u00a3"}


def format_amount(cents, currency="EUR"):
    sign = "-" if cents < 0 else ""
    value = from_cents(abs(cents))
    return f"{sign}{SYMBOLS.get(currency, currency + ' ')}{value:.2f}"
