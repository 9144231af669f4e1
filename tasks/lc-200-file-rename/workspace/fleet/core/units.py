"""Length units."""

METRES_PER = {"m": 1.0, "km": 1000.0, "mi": 1609.344, "ft": 0.3048}


def convert(value, from_unit, to_unit):
    """Converts a length between any two of: m, km, mi, ft."""
    try:
        return value * METRES_PER[from_unit] / METRES_PER[to_unit]
    except KeyError as e:
        raise ValueError(f"unknown length unit {e.args[0]!r}") from None
