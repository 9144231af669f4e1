"""Trip metric plugins: every module in a group package defines NAME and run(trip).

A trip is a dict with these fields (TRIP_FIELDS):
  start, end  (lat, lon) in degrees
  raw_len     odometer length, in `unit`
  unit        one of m, km, mi, ft
  when        ISO-8601 start time
  bias, cap   per-customer tuning numbers
"""
import importlib
import pkgutil

TRIP_FIELDS = ("start", "end", "raw_len", "unit", "when", "bias", "cap")
GROUPS = ("routing", "pricing", "safety", "reporting", "telemetry")


def all_plugins():
    """Imports every plugin module; returns {NAME: module}."""
    out = {}
    for group in GROUPS:
        pkg = importlib.import_module(f"{__name__}.{group}")
        for info in pkgutil.iter_modules(pkg.__path__):
            mod = importlib.import_module(f"{pkg.__name__}.{info.name}")
            out[mod.NAME] = mod
    return out
