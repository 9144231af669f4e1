"""Key-by-key merging of nested dicts."""


def deep_merge(base, override):
    """A new dict: `base` with every key of `override` laid over it, recursively."""
    result = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = deep_merge(result[key], value)
        else:
            result[key] = value
    return result
