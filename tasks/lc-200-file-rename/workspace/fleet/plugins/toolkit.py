"""Short forms of what the trip plugins use most from the core library, so that a plugin
needs one import line. Kept by the plugin owners."""
from fleet.core.geo import haversine_km as great_circle
from fleet.core.mathx import clamp as bounded
from fleet.core.mathx import lerp as blend
from fleet.core.mathx import wrap as cyclic
from fleet.core.units import convert as convert_length
