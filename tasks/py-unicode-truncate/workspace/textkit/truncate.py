"""Shortening text for places with a hard limit (push titles, SMS, VARCHAR columns)."""

ELLIPSIS = "\u2026"


def truncate(text, limit, ellipsis=ELLIPSIS):
    """Shorten `text` to at most `limit` characters, the ellipsis included.

    Text that already fits is returned unchanged (no ellipsis). `limit` must leave room for the
    ellipsis itself.
    """
    if limit < len(ellipsis):
        raise ValueError(f"limit {limit} is shorter than the ellipsis {ellipsis!r}")
    if len(text) <= limit:
        return text
    return text[: limit - len(ellipsis)] + ellipsis


def truncate_utf8(text, max_bytes):
    """The longest prefix of `text` whose UTF-8 encoding fits in `max_bytes` bytes."""
    if max_bytes < 0:
        raise ValueError("max_bytes must be >= 0")
    return text.encode("utf-8")[:max_bytes].decode("utf-8", errors="ignore")
