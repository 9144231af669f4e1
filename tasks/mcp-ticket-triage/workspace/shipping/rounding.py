"""Rounding of money amounts (finance rounds half away from zero)."""
from decimal import ROUND_HALF_UP, Decimal


def round_half_up(value):
    """Nearest integer, halves away from zero: 2.5 -> 3, -2.5 -> -3."""
    return int(Decimal(str(value)).quantize(Decimal(1), rounding=ROUND_HALF_UP))
