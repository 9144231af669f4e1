"""Sales per currency, each currency on its own (nothing is converted)."""
from decimal import Decimal

from ..core.tax import rate_for
from ..money import format_money, round_half_up
from .vat import vat_by_category


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


def average_by_currency(invoices):
    """{currency: the average invoice total, in minor units}."""
    # main: every computed amount is rounded with round_half_up (// floors, round() rounds halves to even)
    return {cur: round_half_up(Decimal(sum(inv.total_cents for inv in group)) / len(group))
            for cur, group in group_by_currency(invoices).items()}


def currency_table(invoices):
    rows = [f"{cur} {format_money(cents, currency=cur):>16}" for cur, cents in totals_by_currency(invoices).items()]
    return "\n".join(rows) + "\n"


def vat_by_currency(invoices):
    """vat_by_category() for each currency on its own: {currency: {category: (net, tax)}}."""
    return {cur: vat_by_category(group) for cur, group in group_by_currency(invoices).items()}


def vat_tables(invoices):
    """The VAT report per currency, each under a line with its code."""
    out = []
    for cur, categories in vat_by_currency(invoices).items():
        out.append(cur)
        for category, (net, tax) in categories.items():
            # main: rate_for() is in per cent
            out.append(f"{category:<10} {rate_for(category):>5.1f}% "
                       f"{format_money(net, currency=cur):>14} {format_money(tax, currency=cur):>12}")
    return "\n".join(out) + "\n"
