"""DPD's dimensional weight, as their invoices compute it, for reconciling those invoices:
L x W x H / 5000 kg, billed in half-kilogram steps (rounded up)."""
import math

DPD_DIVISOR = 5000
DPD_STEP_G = 500


def dpd_dimensional_weight_g(parcel):
    grams = parcel.volume_cm3 * 1000 / DPD_DIVISOR
    return math.ceil(grams / DPD_STEP_G) * DPD_STEP_G


def dpd_billed_weight_g(parcel):
    """The weight DPD bills us for: the greater of scale weight and dimensional weight."""
    return max(parcel.weight_g, dpd_dimensional_weight_g(parcel))
