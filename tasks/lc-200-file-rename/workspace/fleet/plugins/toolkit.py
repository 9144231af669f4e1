"""Short names for the fleet.core functions the trip plugins use most, so that a plugin
needs a single import line. Kept by the plugin owners; not part of fleet.core."""
from fleet.core.geo import haversine_km as great_circle
from fleet.core.mathx import clamp as bounded
from fleet.core.mathx import lerp as blend
from fleet.core.mathx import wrap as cyclic
from fleet.core.units import convert as convert_length

__all__ = ["great_circle", "bounded", "blend", "cyclic", "convert_length"]
