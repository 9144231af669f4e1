"""Per-parcel surcharges on top of the band price (price list 2.3, SHIP-125)."""
from .config import (HEAVY_OVER_G, HEAVY_SURCHARGE_CENTS, OVERSIZE_LONGEST_SIDE_OVER_CM,
                     OVERSIZE_SURCHARGE_CENTS)


def surcharges_for(parcel):
    """The surcharges that apply to `parcel`, as (name, cents) pairs in a fixed order."""
    out = []
    if parcel.weight_g > HEAVY_OVER_G:
        out.append(("heavy", HEAVY_SURCHARGE_CENTS))
    if parcel.longest_side_cm > OVERSIZE_LONGEST_SIDE_OVER_CM:
        out.append(("oversize", OVERSIZE_SURCHARGE_CENTS))
    return tuple(out)
