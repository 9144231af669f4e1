"""Packing help for the warehouse: which standard box an order fits, and how much of the
box's volumetric weight the goods fill."""
from .boxes import BOXES
from .config import VOLUMETRIC_DIVISOR_CM3_PER_KG


def volumetric_weight_g(parcel, divisor=VOLUMETRIC_DIVISOR_CM3_PER_KG):
    """The volume expressed as a weight (L x W x H / divisor kg), in grams."""
    return parcel.volume_cm3 * 1000 / divisor


def fits(item_dims_cm, box):
    _, length, width, height, _ = box
    return all(i <= b for i, b in zip(sorted(item_dims_cm), sorted((length, width, height))))


def smallest_box(item_dims_cm):
    """The smallest standard box (by volume) the item fits in, or None."""
    candidates = [b for b in BOXES if fits(item_dims_cm, b)]
    return min(candidates, key=lambda b: b[1] * b[2] * b[3], default=None)


def fill_ratio(parcel):
    """Actual weight over volumetric weight: below 1 means we ship air."""
    return parcel.weight_g / volumetric_weight_g(parcel)
