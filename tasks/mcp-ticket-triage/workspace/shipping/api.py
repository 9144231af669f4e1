"""The checkout's JSON endpoint: POST /api/shipping/quote (see docs/api.md)."""
from .fx import convert_cents
from .money import format_money
from .quote import quote
from .validation import PayloadError, parse_quote_request


def quote_body(q, currency="EUR"):
    return {
        "zone": q.zone,
        "weight_g": q.weight_g,
        "price_cents": q.price_cents,
        "base_cents": q.base_cents,
        "surcharges": [{"name": n, "cents": c} for n, c in q.surcharges],
        "free": q.free,
        "display": format_money(convert_cents(q.price_cents, currency), currency),
    }


def handle_quote(payload):
    """-> (HTTP status, JSON body)."""
    try:
        zone, parcel, value, currency = parse_quote_request(payload)
    except PayloadError as e:
        return 400, {"error": str(e), "field": e.field}
    try:
        q = quote(zone, parcel, value)
        body = quote_body(q, currency)
    except ValueError as e:
        return 400, {"error": str(e), "field": "zone" if "zone" in str(e) else "weight_g"}
    return 200, body
