"""The sales rows the reports read. In production this is a warehouse query; here, fixtures."""
import datetime
from decimal import Decimal

D = datetime.date

SALES = [
    # tenant, day, product, quantity, amount (EUR), refunded
    ("acme", D(2024, 5, 2), "widget", 10, Decimal("120.00"), False),
    ("acme", D(2024, 5, 3), "gadget", 2, Decimal("399.98"), False),
    ("acme", D(2024, 5, 3), "widget", 1, Decimal("12.00"), True),
    ("acme", D(2024, 5, 9), "gizmo", 5, Decimal("75.50"), False),
    ("acme", D(2024, 6, 1), "widget", 3, Decimal("36.00"), False),
    ("globex", D(2024, 5, 4), "widget", 7, Decimal("84.00"), False),
    ("globex", D(2024, 5, 5), "gizmo", 1, Decimal("15.10"), True),
    ("globex", D(2024, 5, 20), "gadget", 4, Decimal("799.96"), False),
]

QUERY_COUNT = {"n": 0}


def rows(tenant, start, end):
    """Rows of a tenant with start <= day < end."""
    QUERY_COUNT["n"] += 1
    return [r for r in SALES if r[0] == tenant and start <= r[1] < end]
