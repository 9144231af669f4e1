"""Invoice lines and totals as CSV, for the accountants' spreadsheet."""
import csv
import io

from ..core.tax import line_tax
from ..money import format_money

LINE_HEADER = ["number", "customer", "issued", "currency", "description", "quantity", "unit", "net", "tax"]
TOTAL_HEADER = ["number", "customer", "currency", "total"]


def _writer(buf):
    return csv.writer(buf, lineterminator="\n")


def export_lines(invoices):
    buf = io.StringIO()
    out = _writer(buf)
    out.writerow(LINE_HEADER)
    for inv in invoices:
        for line in inv.lines:
            cur = inv.currency
            out.writerow([inv.number, inv.customer, inv.issued.isoformat(), cur, line.description,
                          line.quantity, format_money(line.unit_cents, currency=cur),
                          format_money(line.cents, currency=cur), format_money(line_tax(line), currency=cur)])
    return buf.getvalue()


def export_totals(invoices):
    buf = io.StringIO()
    out = _writer(buf)
    out.writerow(TOTAL_HEADER)
    for inv in invoices:
        out.writerow([inv.number, inv.customer, inv.currency, format_money(inv.total_cents, currency=inv.currency)])
    return buf.getvalue()
