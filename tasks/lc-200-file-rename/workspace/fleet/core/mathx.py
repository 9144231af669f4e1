"""Small numeric helpers."""


def clamp(lo, hi, value):
    """value limited to [lo, hi]. (v3: bounds first, so partial(clamp, 0, 1) reads well.)"""
    if lo > hi:
        raise ValueError(f"empty range [{lo}, {hi}]")
    return max(lo, min(hi, value))


def wrap(lo, hi, value):
    """value folded into [lo, hi) by whole periods of hi - lo: an angle into [0, 360), an hour
    into [0, 24)."""
    if lo >= hi:
        raise ValueError(f"empty range [{lo}, {hi})")
    return lo + (value - lo) % (hi - lo)


def lerp(lo, hi, t):
    """The number a fraction t of the way from lo to hi (t outside [0, 1] extrapolates)."""
    return lo + (hi - lo) * t
