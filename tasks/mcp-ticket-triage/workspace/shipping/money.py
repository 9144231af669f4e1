"""Money is held in integer cents; these render it."""


def format_amount(cents):
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}{cents // 100}.{cents % 100:02d}"


def format_eur(cents):
    return f"{format_amount(cents)} EUR"


def format_money(cents, currency):
    return f"{format_amount(cents)} {currency}"
