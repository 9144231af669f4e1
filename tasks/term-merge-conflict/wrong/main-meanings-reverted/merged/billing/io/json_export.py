"""Invoices as JSON for the customer portal: amounts in minor units and as display text."""
import json
from decimal import Decimal

from .. import money
from ..currency import exponent_for


def major_units(cents, currency):
    """An amount of minor units as a decimal string of major units of `currency`, e.g. 5289 EUR
    -> "52.89", 14880 JPY -> "14880", 1234567 KWD -> "1234.567"."""
    return str(Decimal(cents).scaleb(-exponent_for(currency)))


def invoice_dict(inv):
    total = inv.total_cents
    cur = inv.currency
    return {
        "number": inv.number,
        "customer": inv.customer,
        "issued": inv.issued.isoformat(),
        "currency": inv.currency,
        "total_cents": total,
        "total_text": money.format_money(total, currency=inv.currency),
        "amounts": {"net": major_units(inv.net(), cur), "tax": major_units(inv.tax(), cur),
                    "total": major_units(total, cur)},
        "lines": [{"description": l.description, "quantity": l.quantity, "unit_cents": l.unit_cents}
                  for l in inv.lines],
    }


def export_json(invoices):
    return json.dumps([invoice_dict(inv) for inv in invoices], indent=2, ensure_ascii=False) + "\n"
