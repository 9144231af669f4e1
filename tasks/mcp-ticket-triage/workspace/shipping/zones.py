"""Destination zones. Every country we ship to belongs to exactly one zone."""

ZONES = {
    "DOMESTIC": ("DE",),
    "EU": ("AT", "BE", "DK", "ES", "FR", "IT", "NL", "PL", "SE"),
    "UK": ("GB",),
    "NORDIC": ("NO", "IS"),
    "WORLD": (),
}


def normalize_zone(code):
    """Returns the canonical zone code; raises ValueError for unknown zones."""
    if code not in ZONES:
        raise ValueError(f"unknown shipping zone: {code!r}")
    return code


def zone_for_country(country):
    """Zone of an ISO country code; countries we do not list are WORLD."""
    for zone, countries in ZONES.items():
        if country.upper() in countries:
            return zone
    return "WORLD"
