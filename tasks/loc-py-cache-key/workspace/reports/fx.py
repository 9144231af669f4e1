"""Currency conversion for report amounts (rates are EUR -> X, fixed per month by finance)."""
from decimal import ROUND_HALF_UP, Decimal

RATES = {"EUR": Decimal("1"), "USD": Decimal("1.0850"), "GBP": Decimal("0.8530"), "CHF": Decimal("0.9790")}


def convert(amount_eur, currency):
    try:
        rate = RATES[currency]
    except KeyError:
        raise ValueError(f"unsupported currency {currency!r}") from None
    return (amount_eur * rate).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
