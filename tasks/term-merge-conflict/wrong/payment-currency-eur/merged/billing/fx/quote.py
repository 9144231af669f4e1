"""One-line conversion quotes, for invoice footers and the command line."""
from ..money import format_money
from .convert import convert
from .rates import DEFAULT_RATES


def quote(cents, src, dst, rates=DEFAULT_RATES):
    """E.g. quote(1000, "EUR", "JPY") -> "10.00 EUR = 1,625 JPY"."""
    return f"{format_money(cents, currency=src)} {src} = {format_money(convert(cents, src, dst, rates), currency=dst)} {dst}"


def footer(invoice, dst, rates=DEFAULT_RATES):
    """The invoice total in another currency, for customers who pay in theirs."""
    return f"Total in {dst}: " + quote(invoice.total_cents, invoice.currency, dst, rates).split(" = ")[1]
