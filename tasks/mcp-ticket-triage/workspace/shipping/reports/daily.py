"""The daily shipping summary: parcels, revenue and margin per zone."""
from collections import defaultdict

from ..money import format_eur
from .margins import margin_cents


def summarize(shipments):
    """`shipments`: (quote, parcel) pairs -> {zone: {"parcels", "revenue_cents", "margin_cents"}}."""
    out = defaultdict(lambda: {"parcels": 0, "revenue_cents": 0, "margin_cents": 0})
    for q, parcel in shipments:
        row = out[q.zone]
        row["parcels"] += 1
        row["revenue_cents"] += q.price_cents
        row["margin_cents"] += margin_cents(q, parcel)
    return dict(out)


def render(summary):
    lines = []
    for zone in sorted(summary):
        row = summary[zone]
        lines.append(f"{zone}: {row['parcels']} parcels, revenue {format_eur(row['revenue_cents'])},"
                     f" margin {format_eur(row['margin_cents'])}")
    return "\n".join(lines)
