"""Display currencies. Quotes are always computed in EUR cents; other currencies are
shown for information at the month's fixed rate."""
from .rounding import round_half_up

EUR_TO = {"EUR": 1.0, "GBP": 0.86, "SEK": 11.45, "NOK": 11.62}


def convert_cents(eur_cents, currency):
    if currency not in EUR_TO:
        raise ValueError(f"unsupported display currency: {currency!r}")
    return round_half_up(eur_cents * EUR_TO[currency])
