"""A parcel as the checkout describes it: what the scale says and the box's outer size."""
from dataclasses import dataclass

from .config import MAX_SIDE_CM
from .errors import InvalidParcelError


def _positive_int(name, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidParcelError(f"{name} must be a whole number, got {value!r}")
    if value <= 0:
        raise InvalidParcelError(f"{name} must be positive, got {value}")
    return value


@dataclass(frozen=True)
class Parcel:
    weight_g: int
    length_cm: int
    width_cm: int
    height_cm: int

    def __post_init__(self):
        _positive_int("weight_g", self.weight_g)
        for side in ("length_cm", "width_cm", "height_cm"):
            if _positive_int(side, getattr(self, side)) > MAX_SIDE_CM:
                raise InvalidParcelError(f"{side} over {MAX_SIDE_CM} cm: no carrier takes it")

    @property
    def sides_cm(self):
        return (self.length_cm, self.width_cm, self.height_cm)

    @property
    def longest_side_cm(self):
        return max(self.sides_cm)

    @property
    def volume_cm3(self):
        return self.length_cm * self.width_cm * self.height_cm


def parse_dims(text):
    """'40x30x30' -> (40, 30, 30)."""
    parts = text.lower().replace(" ", "").split("x")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        raise InvalidParcelError(f"dimensions must look like 40x30x30 (cm), got {text!r}")
    return tuple(int(p) for p in parts)
