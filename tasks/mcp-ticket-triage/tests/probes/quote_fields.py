"""Reads a quote of the workspace's shipping package in one request (the Python probe imports
this module from /nab/probes, as the sandbox user, beside the code under test).

quote_fields(zone, weight_g, dims, value, names) calls shipping.quote.quote(zone,
shipping.parcel.Parcel(weight_g, *dims), value), exactly as the old in-process tests did, and
returns {name: value} for each attribute of the quote in `names` that it has, plus
"$missing": {name: the error reading it raised}. Whatever quote() or Parcel() raise, it
raises. It holds no assertions and no expected values: the test runner checks the values'
types and compares them.
"""
from shipping.parcel import Parcel
from shipping.quote import quote


def quote_fields(zone, weight_g, dims, value, names):
    q = quote(zone, Parcel(weight_g, *dims), value)
    out, missing = {}, {}
    for name in names:
        try:
            out[name] = getattr(q, name)
        except Exception as e:  # noqa: BLE001 - reported, and the runner fails the test on it
            missing[name] = f"{type(e).__name__}: {e}"
    out["$missing"] = missing
    return out
