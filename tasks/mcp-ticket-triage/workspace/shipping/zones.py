"""Destination zones. Every country we ship to belongs to exactly one zone."""
from .errors import UnknownZoneError

ZONES = {
    "DOMESTIC": ("DE",),
    "EU": ("AT", "BE", "DK", "ES", "FR", "IT", "NL", "PL", "SE"),
    "UK": ("GB",),
    "NORDIC": ("NO", "IS"),
    "WORLD": (),
}


def normalize_zone(code):
    """The canonical zone code for what the storefront sends (any case, spaces around)."""
    canonical = code.strip().upper() if isinstance(code, str) else None
    if canonical not in ZONES:
        raise UnknownZoneError(f"unknown shipping zone: {code!r}")
    return canonical


def zone_for_country(country):
    """Zone of an ISO country code; countries we do not list are WORLD."""
    for zone, countries in ZONES.items():
        if country.upper() in countries:
            return zone
    return "WORLD"
