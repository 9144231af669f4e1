"""Money is kept as integer cents everywhere; these helpers convert and round.

Finance's rule: every percentage amount is rounded half up to the cent,
exactly once, on the amount it applies to.
"""
from decimal import Decimal, ROUND_HALF_UP


def to_cents(amount):
    """'19.99' or Decimal('19.99') -> 1999. Floats are refused (binary rounding)."""
    if isinstance(amount, float):
        raise TypeError("use a string or Decimal for money, not float")
    return int((Decimal(amount) * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def from_cents(cents):
    return Decimal(cents) / 100


def percent_of(cents, percent):
    """`percent` % of `cents`, rounded half up to a whole cent."""
    exact = Decimal(cents) * Decimal(str(percent)) / 100
    return int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))
