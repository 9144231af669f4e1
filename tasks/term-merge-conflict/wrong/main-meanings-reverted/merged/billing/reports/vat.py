"""VAT report: net and tax per category."""
from ..core.tax import line_tax, rate_for
from ..money import format_money


def vat_by_category(invoices):
    out = {}
    for inv in invoices:
        for line in inv.lines:
            net, tax = out.get(line.tax_category, (0, 0))
            out[line.tax_category] = (net + line.cents, tax + line_tax(line))
    return dict(sorted(out.items()))


def vat_table(invoices, *, currency):
    rows = []
    for category, (net, tax) in vat_by_category(invoices).items():
        rows.append(f"{category:<10} {rate_for(category) * 100:>5.1f}% "
                    f"{format_money(net, currency=currency):>14} {format_money(tax, currency=currency):>12}")
    return "\n".join(rows) + "\n"
