"""Fitting values into fixed-size database columns (sizes in UTF-8 bytes, like MySQL VARCHAR with utf8mb4 byte limits)."""
from .truncate import truncate_utf8

COLUMNS = {"display_name": 64, "status_text": 140, "city": 48}


def fit(column, value):
    try:
        size = COLUMNS[column]
    except KeyError:
        raise KeyError(f"unknown column {column!r}") from None
    return truncate_utf8(value, size)
