"""Great-circle geometry on (lat, lon) pairs in degrees."""
import math

EARTH_RADIUS_KM = 6371.0088


def haversine_km(a, b):
    """Great-circle distance between points a and b, in kilometres."""
    lat1, lon1, lat2, lon2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(h))
