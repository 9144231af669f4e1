"""Cache keys: a stable string for a function call."""
import datetime
import decimal
import inspect


def canonical(value):
    """A deterministic text form of an argument value (dict and set order do not matter)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return repr(value)
    if isinstance(value, (datetime.date, datetime.datetime)):
        return f"{type(value).__name__}({value.isoformat()})"
    if isinstance(value, decimal.Decimal):
        return f"Decimal({value})"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(canonical(v) for v in value) + "]"
    if isinstance(value, (set, frozenset)):
        return "{" + ",".join(sorted(canonical(v) for v in value)) + "}"
    if isinstance(value, dict):
        items = sorted((canonical(k), canonical(v)) for k, v in value.items())
        return "{" + ",".join(f"{k}:{v}" for k, v in items) + "}"
    raise TypeError(f"cannot build a cache key from {type(value).__name__}")


def call_key(namespace, func, args, kwargs):
    """The cache key for calling `func(*args, **kwargs)`."""
    sig = inspect.signature(func)
    bound = sig.bind(*args, **kwargs)
    bound.apply_defaults()
    parts = [namespace, func.__module__ + "." + func.__qualname__]
    for name, param in sig.parameters.items():
        if param.kind in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD):
            parts.append(f"{name}={canonical(bound.arguments[name])}")
    return "|".join(parts)
