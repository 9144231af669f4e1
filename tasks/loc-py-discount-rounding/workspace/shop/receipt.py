"""Plain-text receipt, as printed on the packing slip."""
from .currency import format_amount


def render(totals, catalog, currency="EUR"):
    out = []
    for sku, qty, gross, disc, _tax in totals.lines:
        name = catalog.get(sku).name
        out.append(f"{qty:>3} x {name:<28}{format_amount(gross, currency):>10}")
        if disc:
            out.append(f"      discount{'':<22}{format_amount(-disc, currency):>10}")
    out.append("-" * 44)
    rows = [
        ("Subtotal", totals.subtotal),
        ("Discounts", -(totals.discount + totals.fixed_discount)),
        ("VAT", totals.tax),
        ("Shipping", totals.shipping),
        ("Total", totals.total),
    ]
    for label, cents in rows:
        out.append(f"{label:<34}{format_amount(cents, currency):>10}")
    return "\n".join(out)
