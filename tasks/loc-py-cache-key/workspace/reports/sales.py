"""Sales summaries per tenant and period."""
from collections import Counter
from decimal import Decimal

from . import data
from .cache import cached
from .fx import convert


@cached("sales")
def sales_summary(tenant, start, end, *, currency="EUR", include_refunds=False):
    """Revenue and units of `tenant` in [start, end), in `currency`."""
    revenue = Decimal("0")
    units = 0
    for _t, _day, _product, qty, amount, refunded in data.rows(tenant, start, end):
        if refunded and not include_refunds:
            continue
        revenue += amount
        units += qty
    return {"tenant": tenant, "currency": currency, "revenue": convert(revenue, currency), "units": units}


@cached("sales")
def top_products(tenant, start, end, limit=3):
    counts = Counter()
    for _t, _day, product, qty, _amount, refunded in data.rows(tenant, start, end):
        if not refunded:
            counts[product] += qty
    return counts.most_common(limit)
