"""The values that cross the boundary between the test runner and a probe.

Both sides speak JSON lines. Plain JSON carries None, booleans, numbers, strings and lists;
everything else is an object with one key that starts with "$":

    {"$tuple": [...]}   {"$set": [...]}   {"$frozenset": [...]}   {"$dict": [[k, v], ...]}
    {"$bytes": "<base64>"}   {"$bytearray": "<base64>"}   {"$float": "nan" | "inf" | "-inf"}
    {"$decimal": "1.10"}   {"$fraction": "1/3"}   {"$complex": [re, im]}
    {"$ref": 7, "type": "pkg.mod.Class", "repr": "..."}           an object left in the probe
    {"$class": 7, "type": ..., "exception": [[module, qualname], ...]}  a class left in the probe
    {"$exc": {...}}                                                a raised exception (replies only)

Decoding never evaluates anything: a `$ref` becomes whatever the caller's `make_ref` returns.
A document nested deeper than MAX_DEPTH or holding more than MAX_ITEMS values is refused.
"""

import base64
import decimal
import fractions
import math

MAX_DEPTH = 200
MAX_ITEMS = 2_000_000


class WireError(ValueError):
    """A value that cannot be encoded, or a document that is not a valid encoding."""


def encode(value, ref_of, depth=0):
    """`value` as JSON-ready data. `ref_of(obj)` encodes anything not carried by value."""
    if depth > MAX_DEPTH:
        raise WireError("the value is nested deeper than %d levels" % MAX_DEPTH)
    if value is None or isinstance(value, (bool, str)):
        return value
    if type(value) is int:
        return value
    if type(value) is float:
        if math.isnan(value):
            return {"$float": "nan"}
        if math.isinf(value):
            return {"$float": "inf" if value > 0 else "-inf"}
        return value
    t = type(value)
    d = depth + 1
    if t is list:
        return [encode(v, ref_of, d) for v in value]
    if t is tuple:
        return {"$tuple": [encode(v, ref_of, d) for v in value]}
    if t is dict:
        return {"$dict": [[encode(k, ref_of, d), encode(v, ref_of, d)] for k, v in value.items()]}
    if t is set:
        return {"$set": [encode(v, ref_of, d) for v in value]}
    if t is frozenset:
        return {"$frozenset": [encode(v, ref_of, d) for v in value]}
    if t is bytes:
        return {"$bytes": base64.b64encode(value).decode("ascii")}
    if t is bytearray:
        return {"$bytearray": base64.b64encode(bytes(value)).decode("ascii")}
    if t is decimal.Decimal:
        return {"$decimal": str(value)}
    if t is fractions.Fraction:
        return {"$fraction": "%d/%d" % (value.numerator, value.denominator)}
    if t is complex:
        return {"$complex": [encode(value.real, ref_of, d), encode(value.imag, ref_of, d)]}
    return ref_of(value)


class _Budget:
    def __init__(self):
        self.left = MAX_ITEMS

    def take(self):
        self.left -= 1
        if self.left < 0:
            raise WireError("the value holds more than %d items" % MAX_ITEMS)


def decode(data, make_ref, depth=0, budget=None):
    """The value `data` encodes. `make_ref(obj)` turns a `$ref`/`$class` object into a value."""
    if budget is None:
        budget = _Budget()
    budget.take()
    if depth > MAX_DEPTH:
        raise WireError("the value is nested deeper than %d levels" % MAX_DEPTH)
    if data is None or isinstance(data, (bool, str, int)):
        return data
    if isinstance(data, float):
        return data
    d = depth + 1
    if isinstance(data, list):
        return [decode(v, make_ref, d, budget) for v in data]
    if not isinstance(data, dict) or len(data) == 0:
        raise WireError("not a valid encoded value: %s" % _short(data))
    if "$ref" in data or "$class" in data:
        return make_ref(data)
    if len(data) != 1:
        raise WireError("not a valid encoded value: %s" % _short(data))
    (tag, body), = data.items()
    try:
        if tag == "$tuple":
            return tuple(decode(v, make_ref, d, budget) for v in _list(body))
        if tag == "$dict":
            out = {}
            for pair in _list(body):
                k, v = _list(pair)
                out[decode(k, make_ref, d, budget)] = decode(v, make_ref, d, budget)
            return out
        if tag == "$set":
            return set(decode(v, make_ref, d, budget) for v in _list(body))
        if tag == "$frozenset":
            return frozenset(decode(v, make_ref, d, budget) for v in _list(body))
        if tag == "$bytes":
            return base64.b64decode(_str(body), validate=True)
        if tag == "$bytearray":
            return bytearray(base64.b64decode(_str(body), validate=True))
        if tag == "$float":
            if body not in ("nan", "inf", "-inf"):
                raise WireError("not a special float: %s" % _short(body))
            return float(body)
        if tag == "$decimal":
            return decimal.Decimal(_str(body))
        if tag == "$fraction":
            return fractions.Fraction(_str(body))
        if tag == "$complex":
            re, im = _list(body)
            return complex(decode(re, make_ref, d, budget), decode(im, make_ref, d, budget))
    except (TypeError, ValueError, ArithmeticError) as e:
        if isinstance(e, WireError):
            raise
        raise WireError("not a valid %s: %s" % (tag, e)) from None
    raise WireError("unknown tag %s" % _short(tag))


def _list(v):
    if not isinstance(v, list):
        raise WireError("expected a list, got %s" % _short(v))
    return v


def _str(v):
    if not isinstance(v, str):
        raise WireError("expected a string, got %s" % _short(v))
    return v


def _short(v):
    text = repr(v)
    return text if len(text) <= 80 else text[:77] + "..."
