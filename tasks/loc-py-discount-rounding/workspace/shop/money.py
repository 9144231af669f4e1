"""Money is kept as integer cents everywhere; these helpers convert between cents and euros."""
from decimal import Decimal, ROUND_HALF_UP


def to_cents(amount):
    """'19.99' or Decimal('19.99') -> 1999. Floats are refused (binary rounding)."""
    if isinstance(amount, float):
        raise TypeError("use a string or Decimal for money, not float")
    return int((Decimal(amount) * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def from_cents(cents):
    return Decimal(cents) / 100
