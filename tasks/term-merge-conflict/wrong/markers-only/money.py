"""Amounts are integers in minor units (cents); these helpers convert them to text and back."""

# Digits after the decimal point, per ISO 4217 currency.
CURRENCY_EXPONENT = {"EUR": 2, "USD": 2, "GBP": 2, "JPY": 0, "KWD": 3}


def format_amount(cents, currency="EUR"):
    """Format an amount in minor units with thousands separators, e.g. 123456 -> "1,234.56",
    -150 -> "-1.50".

    The number of decimals follows the currency: JPY has none, KWD has three.
    """
    exponent = CURRENCY_EXPONENT[currency]
    # divmod floors toward minus infinity: divmod(-150, 100) == (-2, 50), which printed
    # credit notes as "-2.50". Format the magnitude and put the sign in front instead.
    sign = "-" if cents < 0 else ""
    units, minor = divmod(abs(cents), 10 ** exponent)
    text = f"{units:,}"
    if exponent:
        text += f".{minor:0{exponent}d}"
    return sign + text


def parse_amount(text):
    """Parse "19.99", "19" or "-1.50" into cents."""
    text = text.strip()
    sign = -1 if text.startswith("-") else 1
    units, _, minor = text.lstrip("-").partition(".")
    return sign * (int(units) * 100 + int((minor + "00")[:2]))
