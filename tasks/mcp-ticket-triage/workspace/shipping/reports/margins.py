"""Margin per shipped parcel: what the customer paid for shipping minus what the carrier
charges us for it."""
from ..carriers.dimensional import dpd_billed_weight_g
from ..carriers.registry import default_carrier


def carrier_cost_cents(zone, parcel):
    carrier = default_carrier(zone)
    weight = dpd_billed_weight_g(parcel) if carrier.name == "DPD" else parcel.weight_g
    return carrier.tariff_cents(weight)


def margin_cents(q, parcel):
    """Shipping revenue of quote `q` minus the default carrier's cost for `parcel`."""
    return q.price_cents - carrier_cost_cents(q.zone, parcel)
