"""Renders the rate card as the Markdown table in docs/pricing.md."""
from .money import format_amount
from .ratecard import BANDS


def _kg(grams):
    kg = grams / 1000
    return f"{kg:g} kg"


def price_table_markdown():
    limits = [up_to for up_to, _ in next(iter(BANDS.values()))]
    lines = ["| zone | " + " | ".join(f"up to {_kg(g)}" for g in limits) + " |",
             "|---|" + "---|" * len(limits)]
    for zone, rows in BANDS.items():
        lines.append(f"| {zone} | " + " | ".join(format_amount(c) for _, c in rows) + " |")
    return "\n".join(lines)
