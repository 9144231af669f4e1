"""CSV-ish exports of the raw rows, with per-call formatting options."""
from . import data
from .cache import cached
from .fx import convert


@cached("export")
def export_rows(tenant, start, end, **options):
    """Options: currency (default EUR), separator (default ','), header (default True)."""
    currency = options.get("currency", "EUR")
    sep = options.get("separator", ",")
    out = []
    if options.get("header", True):
        out.append(sep.join(["day", "product", "quantity", "amount", "refunded"]))
    for _t, day, product, qty, amount, refunded in data.rows(tenant, start, end):
        out.append(sep.join([day.isoformat(), product, str(qty), str(convert(amount, currency)), str(refunded).lower()]))
    return "\n".join(out)
