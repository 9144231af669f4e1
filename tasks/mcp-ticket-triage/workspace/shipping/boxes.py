"""The warehouse's standard shipping boxes: (name, length, width, height in cm, tare g)."""

BOXES = [
    ("S", 25, 17, 10, 120),
    ("M", 35, 25, 15, 220),
    ("L", 45, 35, 25, 380),
    ("XL", 60, 40, 40, 650),
    ("TUBE", 100, 12, 12, 300),
]
