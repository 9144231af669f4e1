"""Durations are written like '250ms', '10s', '5m', '24h'."""
import re

_UNITS = {"ms": 0.001, "s": 1, "m": 60, "h": 3600}
_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)\s*$")


def parse_duration(text):
    """Seconds as a float."""
    m = _RE.match(str(text))
    if not m:
        raise ValueError(f"not a duration: {text!r} (use e.g. 500ms, 10s, 5m, 2h)")
    return float(m.group(1)) * _UNITS[m.group(2)]
