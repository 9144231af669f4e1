"""A parcel's current status: the latest event, except that delivered and returned are final."""
FINAL = ("delivered", "returned")


def current_status(events):
    status = None
    for e in sorted(events, key=lambda e: e.at):
        if status in FINAL:
            break
        status = e.kind
    return status or "label_created"
