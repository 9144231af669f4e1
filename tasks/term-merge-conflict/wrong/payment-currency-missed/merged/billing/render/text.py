"""Plain-text invoices."""
from ..core.tax import line_tax
from ..money import format_money
from ..core.dates import iso
from .layout import columns


def render_text(inv):
    cur = inv.currency
    rows = [
        f"Invoice {inv.number} ({inv.currency})",
        f"Customer: {inv.customer}",
        f"Issued: {iso(inv.issued)}  Due: {iso(inv.due)}",
        "",
    ]
    for line in inv.lines:
        rows.append(columns(line.description, str(line.quantity), format_money(line.unit_cents, currency=cur),
                            format_money(line.cents, currency=cur)))
    rows.append("")
    rows.append(f"Net: {format_money(inv.net(), currency=cur)}")
    rows.append(f"Tax: {format_money(sum(line_tax(line) for line in inv.lines), currency=cur)}")
    rows.append(f"Total: {format_money(inv.total_cents, currency=cur)} {cur}")
    return "\n".join(rows) + "\n"
