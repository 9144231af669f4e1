"""The shipping quote shown at checkout."""
from dataclasses import dataclass

from .promotions import free_shipping
from .rates import band_price
from .surcharges import surcharges_for
from .zones import normalize_zone


@dataclass(frozen=True)
class Quote:
    zone: str
    weight_g: int
    base_cents: int
    surcharges: tuple
    free: bool

    @property
    def price_cents(self):
        """What the customer pays: the band price (unless shipping is free) plus surcharges."""
        return (0 if self.free else self.base_cents) + sum(c for _, c in self.surcharges)


def quote(zone, parcel, order_value_cents=0):
    """Quote for `parcel` (a shipping.parcel.Parcel) to `zone`."""
    zone = normalize_zone(zone)
    base = band_price(zone, parcel.weight_g)
    return Quote(zone=zone, weight_g=parcel.weight_g, base_cents=base,
                 surcharges=surcharges_for(parcel), free=free_shipping(zone, order_value_cents))
