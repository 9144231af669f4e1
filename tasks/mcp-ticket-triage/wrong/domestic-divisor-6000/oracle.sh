#!/bin/bash
# Oracle for SHIP-142 (mcp/data/tickets.json), with the rounding rule of SHIP-131's final
# comment: inclusive band limits; bands and the heavy surcharge by billable weight =
# max(actual, volumetric rounded up to 100 g); freight decided by actual weight, billable
# over 31.5 kg priced at the top band; billable_weight_g on the quote, in the API and CLI.
set -euo pipefail
cd /workspace
# The tracker, read as the task requires (the open shipping tickets, SHIP-142 whole, and the
# decision it names), through the client nab places beside the MCP servers' sockets: the
# required calls are judged from the servers' own record, for every agent.
for call in 'list_tickets {"status": "open", "component": "shipping"}' 'get_ticket {"id": "SHIP-142"}' \
            'get_ticket {"id": "SHIP-131"}'; do
  python3 /nab/mcp-sockets/mcp_call.py tracker ${call%% *} "${call#* }" >/dev/null
done
cat > shipping/billable.py <<'EOF'
"""Billable weight (price list 2.3, SHIP-131): the greater of actual and volumetric weight."""
from .config import VOLUMETRIC_DIVISOR_CM3_PER_KG

VOLUMETRIC_STEP_G = 100


def volumetric_weight_g(parcel):
    """L x W x H / divisor kg, in grams, rounded up to the next 100 g (exact steps stay)."""
    per_step = VOLUMETRIC_DIVISOR_CM3_PER_KG * VOLUMETRIC_STEP_G
    return -(-parcel.volume_cm3 * 1000 // per_step) * VOLUMETRIC_STEP_G


def billable_weight_g(parcel):
    """The actual weight is never rounded."""
    return max(parcel.weight_g, volumetric_weight_g(parcel))
EOF
python3 - <<'PY'
def patch(path, old, new):
    text = open(path).read()
    assert text.count(old) == 1, (path, old)
    open(path, "w").write(text.replace(old, new))

patch("shipping/rates.py", "        if weight_g < up_to_g:\n", "        if weight_g <= up_to_g:\n")
patch("shipping/surcharges.py", '''

def surcharges_for(parcel):
    """The surcharges that apply to `parcel`, as (name, cents) pairs in a fixed order."""
    out = []
    if parcel.weight_g > HEAVY_OVER_G:
''', '''from .billable import billable_weight_g


def surcharges_for(parcel, billable_g=None):
    """The surcharges that apply to `parcel`, as (name, cents) pairs in a fixed order."""
    out = []
    if (billable_weight_g(parcel) if billable_g is None else billable_g) > HEAVY_OVER_G:
''')
patch("shipping/quote.py", "from .promotions import free_shipping\n",
      "from .billable import billable_weight_g\nfrom .config import MAX_PARCEL_WEIGHT_G\n"
      "from .errors import FreightError\nfrom .promotions import free_shipping\n")
patch("shipping/quote.py", "    weight_g: int\n    base_cents: int\n", "    weight_g: int\n    billable_weight_g: int\n    base_cents: int\n")
patch("shipping/quote.py", '''    base = band_price(zone, parcel.weight_g)
    return Quote(zone=zone, weight_g=parcel.weight_g, base_cents=base,
                 surcharges=surcharges_for(parcel), free=free_shipping(zone, order_value_cents))
''', '''    if parcel.weight_g > MAX_PARCEL_WEIGHT_G:
        raise FreightError(f"parcels over {MAX_PARCEL_WEIGHT_G} g are freight, not parcels")
    billable = billable_weight_g(parcel)
    base = band_price(zone, min(billable, MAX_PARCEL_WEIGHT_G))
    return Quote(zone=zone, weight_g=parcel.weight_g, billable_weight_g=billable, base_cents=base,
                 surcharges=surcharges_for(parcel, billable), free=free_shipping(zone, order_value_cents))
''')
patch("shipping/api.py", '        "weight_g": q.weight_g,\n', '        "weight_g": q.weight_g,\n        "billable_weight_g": q.billable_weight_g,\n')
patch("shipping/format.py", '"weight: {q.weight_g} g"]', '"weight: {q.weight_g} g", f"billable weight: {q.billable_weight_g} g"]')
patch("CHANGELOG.md", "## Unreleased\n", "## Unreleased\n- Band limits are inclusive; bands and the heavy surcharge go by billable weight, shown in quotes, the API and the CLI (SHIP-142).\n")
PY
python3 -m unittest discover -s tests -t .
