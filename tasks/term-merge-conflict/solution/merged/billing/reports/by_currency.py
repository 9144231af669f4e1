"""Sales per currency, each currency on its own (nothing is converted)."""
from ..money import format_money


def group_by_currency(invoices):
    groups = {}
    for inv in invoices:
        groups.setdefault(inv.currency, []).append(inv)
    return dict(sorted(groups.items()))


def totals_by_currency(invoices):
    """{currency: cents invoiced}."""
    return {cur: sum(inv.total_cents for inv in group) for cur, group in group_by_currency(invoices).items()}


def largest_by_currency(invoices):
    """{currency: number of the largest invoice in it}."""
    return {cur: max(group, key=lambda inv: inv.total_cents).number for cur, group in group_by_currency(invoices).items()}


def currency_table(invoices):
    rows = [f"{cur} {format_money(cents, currency=cur):>16}" for cur, cents in totals_by_currency(invoices).items()]
    return "\n".join(rows) + "\n"
