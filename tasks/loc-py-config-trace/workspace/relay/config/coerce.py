"""Turning strings from the environment into the type the default has."""

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


class CoerceError(ValueError):
    pass


def coerce(raw, like):
    """Parse `raw` (a string) as the same type as `like` (the default value)."""
    if isinstance(like, bool):
        low = raw.strip().lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise CoerceError(f"expected a boolean, got {raw!r}")
    if isinstance(like, int):
        try:
            return int(raw.strip())
        except ValueError:
            raise CoerceError(f"expected an integer, got {raw!r}") from None
    return raw
