"""Band prices: what a parcel of a given weight costs to a zone, before surcharges."""
from .config import MAX_PARCEL_WEIGHT_G
from .errors import FreightError, InvalidParcelError
from .ratecard import bands


def band_price(zone, weight_g):
    """Price in cents of the weight band `weight_g` falls in for `zone`."""
    if weight_g <= 0:
        raise InvalidParcelError("weight must be positive")
    if weight_g > MAX_PARCEL_WEIGHT_G:
        raise FreightError(f"parcels over {MAX_PARCEL_WEIGHT_G} g are freight, not parcels")
    for up_to_g, cents in bands(zone):
        if weight_g < up_to_g:
            return cents
    return bands(zone)[-1][1]
