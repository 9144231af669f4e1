"""Carrier webhook events, normalized."""
from dataclasses import dataclass

CARRIER_CODES = {
    "DHL": {"PU": "picked_up", "TR": "in_transit", "OD": "out_for_delivery", "DL": "delivered", "RT": "returned"},
    "DPD": {"01": "picked_up", "02": "in_transit", "04": "out_for_delivery", "05": "delivered", "09": "returned"},
}


@dataclass(frozen=True)
class Event:
    tracking_id: str
    at: str  # ISO 8601, UTC
    kind: str


def normalize(carrier, raw):
    codes = CARRIER_CODES.get(carrier)
    if codes is None or raw.get("code") not in codes:
        raise ValueError(f"unknown {carrier} event code {raw.get('code')!r}")
    return Event(tracking_id=raw["id"], at=raw["ts"], kind=codes[raw["code"]])
