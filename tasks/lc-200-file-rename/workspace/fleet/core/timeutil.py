"""Timestamps."""
from datetime import datetime, timezone


def parse_timestamp(text):
    """Parses an ISO-8601 timestamp; a trailing Z or no offset means UTC."""
    t = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return t if t.tzinfo else t.replace(tzinfo=timezone.utc)
