"""Turns an API payload into quote arguments, naming the field that is wrong."""
from .parcel import Parcel


class PayloadError(ValueError):
    def __init__(self, field, message):
        super().__init__(message)
        self.field = field


def _int_field(payload, name, default=None):
    value = payload.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise PayloadError(name, f"{name} must be an integer")
    return value


def parse_quote_request(payload):
    """-> (zone, Parcel, order_value_cents, currency)."""
    if not isinstance(payload, dict):
        raise PayloadError("", "the request body must be a JSON object")
    zone = payload.get("zone")
    if not isinstance(zone, str):
        raise PayloadError("zone", "zone must be a string")
    weight_g = _int_field(payload, "weight_g")
    dims = payload.get("dims_cm")
    if not isinstance(dims, list) or len(dims) != 3:
        raise PayloadError("dims_cm", "dims_cm must be [length, width, height] in cm")
    try:
        parcel = Parcel(weight_g, *dims)
    except ValueError as e:
        raise PayloadError("dims_cm" if "cm" in str(e) else "weight_g", str(e)) from e
    value = _int_field(payload, "order_value_cents", 0)
    currency = payload.get("currency", "EUR")
    if not isinstance(currency, str):
        raise PayloadError("currency", "currency must be a string")
    return zone, parcel, value, currency
