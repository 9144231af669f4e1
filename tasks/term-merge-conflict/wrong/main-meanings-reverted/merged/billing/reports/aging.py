"""Receivables aging: unpaid invoice totals by how long they are overdue."""
from ..money import format_money
from ..core.dates import days_between

BUCKETS = ((-10**6, "current"), (1, "1-30"), (31, "31-60"), (61, "61-90"), (91, "90+"))


def bucket_for(days_overdue):
    label = BUCKETS[0][1]
    for start, name in BUCKETS:
        if days_overdue >= start:
            label = name
    return label


def aging(invoices, as_of, paid=()):
    """{bucket: cents} over the invoices not in `paid` (one currency)."""
    result = {label: 0 for _, label in BUCKETS}
    for inv in invoices:
        if inv.number in paid:
            continue
        result[bucket_for(days_between(inv.due, as_of))] += inv.total_cents
    return result


def aging_table(invoices, as_of, paid=(), *, currency):
    rows = [f"{label:<8} {format_money(cents, currency=currency):>14}"
            for label, cents in aging(invoices, as_of, paid).items()]
    return "\n".join(rows) + "\n"


def aging_by_currency(invoices, as_of, paid=()):
    """aging() for each currency on its own: {currency: {bucket: cents}}."""
    groups = {}
    for inv in invoices:
        groups.setdefault(inv.currency, []).append(inv)
    return {cur: aging(group, as_of, paid) for cur, group in sorted(groups.items())}


def aging_tables(invoices, as_of, paid=()):
    """One aging table per currency, each under a line with its code."""
    out = []
    for cur, buckets in aging_by_currency(invoices, as_of, paid).items():
        out.append(cur)
        out.extend(f"{label:<8} {format_money(cents, currency=cur):>14}" for label, cents in buckets.items())
    return "\n".join(out) + "\n"
