"""The text the CLI prints for a quote, one fact per line."""
from .money import format_eur


def quote_lines(q):
    lines = [f"zone: {q.zone}", f"weight: {q.weight_g} g"]
    lines.append(f"price: {format_eur(q.price_cents)}" + (" (free shipping)" if q.free else ""))
    lines.append(f"  band: {format_eur(0 if q.free else q.base_cents)}")
    for name, cents in q.surcharges:
        lines.append(f"  {name}: {format_eur(cents)}")
    return lines
