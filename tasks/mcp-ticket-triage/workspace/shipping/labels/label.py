"""A label: sender, recipient, carrier and the tracking barcode's text."""
from ..countries import country_name
from .address import address_lines

SENDER = ("Webshop GmbH", "Lagerstrasse 4", "20457 Hamburg", "DE")


def render_label(recipient, carrier_name, tracking_id, weight_g):
    lines = ["FROM:"] + list(SENDER) + ["", "TO:"] + address_lines(recipient)
    lines[-1] = country_name(recipient.country).upper()
    lines += ["", f"{carrier_name}  {weight_g / 1000:.1f} kg", f"*{tracking_id}*"]
    return "\n".join(lines)
