"""Push-notification previews: a title and a body line, each with its own limit."""
from .clean import normalize, strip_controls
from .truncate import truncate, truncate_utf8

TITLE_LIMIT = 40
BODY_LIMIT = 120
PAYLOAD_BODY_BYTES = 178   # what the push provider accepts for the body, in UTF-8 bytes


def notification(sender, message):
    title = truncate(normalize(strip_controls(sender)), TITLE_LIMIT)
    body = truncate(normalize(strip_controls(message)), BODY_LIMIT)
    return {"title": title, "body": truncate_utf8(body, PAYLOAD_BODY_BYTES)}
