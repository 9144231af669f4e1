"""Small numeric helpers."""


def clamp(lo, hi, value):
    """value limited to [lo, hi]. (v3: bounds first, so partial(clamp, 0, 1) reads well.)"""
    if lo > hi:
        raise ValueError(f"empty range [{lo}, {hi}]")
    return max(lo, min(hi, value))
