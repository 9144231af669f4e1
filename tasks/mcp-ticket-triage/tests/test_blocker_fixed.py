"""Hidden checks for SHIP-142 (both parts, the product owner's decisions, SHIP-131's final
rounding rule) and for what other tickets ask but were not decided. The shipping package
runs in the Python probe as the sandbox user (nabverify.python: sources only, byte code in a
cache folder of the probe's own, so a planted __pycache__ is never run); what it returns
comes back as plain data, and every expectation is computed here from the price list."""
import math
import re

import pytest

import nabverify

WS = "/workspace"

# Price list 2.3 (independent copy): zone -> [(up to grams, cents)].
TABLE = {
    "DOMESTIC": [(500, 390), (1000, 490), (2000, 590), (5000, 790), (10000, 1190), (31500, 1690)],
    "EU": [(500, 890), (1000, 1090), (2000, 1390), (5000, 1790), (10000, 2490), (31500, 3690)],
    "UK": [(500, 990), (1000, 1290), (2000, 1590), (5000, 2190), (10000, 2990), (31500, 4490)],
    "NORDIC": [(500, 1090), (1000, 1390), (2000, 1690), (5000, 2390), (10000, 3290), (31500, 4990)],
    "WORLD": [(500, 1490), (1000, 1990), (2000, 2990), (5000, 4490), (10000, 6990), (31500, 9990)],
}
HEAVY, OVERSIZE = 1500, 2500


@pytest.fixture(scope="module")
def ws():
    probe = nabverify.python(paths=["/nab/probes", WS])
    importlib = probe.import_module("importlib")
    builtins = probe.import_module("builtins")
    mods = {n: importlib.import_module(f"shipping.{n}") for n in ("quote", "parcel", "api", "cli")}
    mods["carriers"] = {n: importlib.import_module(f"shipping.carriers.{n}")
                        for n in ("dhl", "dpd", "gls", "ups", "hermes", "postnord")}
    assert builtins.getattr(mods["quote"], "__file__") == f"{WS}/shipping/quote.py"
    mods["builtins"] = builtins
    # The quote helper (tests/probes/quote_fields.py), imported in the same probe.
    mods["quote_fields"] = importlib.import_module("quote_fields").quote_fields
    return mods


def band(zone, grams):
    for up_to, cents in TABLE[zone]:
        if grams <= up_to:
            return cents
    return TABLE[zone][-1][1]


def billable(weight_g, dims):
    volume = dims[0] * dims[1] * dims[2]
    return max(weight_g, math.ceil(volume / 500) * 100)


FIELDS = {"zone": str, "weight_g": int, "billable_weight_g": int, "base_cents": int, "price_cents": int,
          "free": bool, "surcharges": (tuple, list)}


class Observed:
    """A quote as the runner sees it: its fields, read in the probe in one request
    (tests/probes/quote_fields.py), each required to be plain data of its type, so an
    object of the code under test never decides a comparison."""

    def __init__(self, fields):
        self._fields = fields

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if name in self._fields["$missing"]:
            raise AttributeError(f"quote.{name}: {self._fields['$missing'][name]}")
        value = self._fields[name]
        want = FIELDS[name]
        assert isinstance(value, want) and not (want is int and type(value) is bool), \
            f"quote.{name} is a {type(value).__name__}"
        return value


def q(ws, zone, weight_g, dims, value=0):
    fields = ws["quote_fields"](zone, weight_g, list(dims), value, list(FIELDS))
    assert type(fields) is dict and type(fields.get("$missing")) is dict, fields
    return Observed(fields)


def charged(q_):
    return dict(q_.surcharges)


SMALL = (10, 10, 5)  # 100 g volumetric: every weight here is billed as it is


@pytest.mark.parametrize("zone", sorted(TABLE))
def test_band_limits_are_inclusive(ws, zone):
    for up_to, cents in TABLE[zone]:
        assert q(ws, zone, up_to, SMALL).price_cents == cents + (HEAVY if up_to > 20000 else 0), f"{zone} {up_to} g"
        assert q(ws, zone, up_to - 1, SMALL).base_cents == cents, f"{zone} {up_to - 1} g"
        if up_to < 31500:
            assert q(ws, zone, up_to + 1, SMALL).base_cents == band(zone, up_to + 1), f"{zone} {up_to + 1} g"


def test_reported_orders(ws):
    assert q(ws, "EU", 2000, (30, 20, 10)).price_cents == 1390  # order #88412 (1200 g volumetric)
    assert q(ws, "DOMESTIC", 500, (23, 16, 2)).price_cents == 390
    pillows = q(ws, "EU", 2100, (40, 30, 30))  # order #88530
    assert pillows.billable_weight_g == 7200
    assert pillows.price_cents == 2490


@pytest.mark.parametrize("weight_g,dims", [
    (1000, (41, 29, 17)),   # 4042.6 g -> 4100 g
    (1000, (25, 20, 20)),   # exactly 2000 g stays 2000 g
    (300, (31, 22, 11)),    # 1500.4 g -> 1600 g
    (4800, (45, 35, 25)),   # 7875 g -> 7900 g
    (9999, (50, 40, 25)),   # 10000 g volumetric at a band limit
    (1950, (10, 10, 10)),   # actual heavier: 1950 g, never rounded
    (2001, (20, 20, 20)),   # actual 2001 g beats 1600 g: still 2001 g
    (12345, (60, 40, 40)),  # 19200 g volumetric
])
@pytest.mark.parametrize("zone", ["EU", "DOMESTIC", "WORLD"])
def test_billable_weight_prices_the_band(ws, zone, weight_g, dims):
    got = q(ws, zone, weight_g, dims)
    want = billable(weight_g, dims)
    assert got.billable_weight_g == want
    assert got.weight_g == weight_g
    assert got.base_cents == band(zone, want)


def test_domestic_divisor_is_still_5000(ws):
    assert q(ws, "DOMESTIC", 2100, (40, 30, 30)).billable_weight_g == 7200, "SHIP-145 is undecided"


def test_heavy_surcharge_goes_by_billable_weight(ws):
    bulky = q(ws, "EU", 12000, (60, 60, 40))  # 28800 g volumetric
    assert bulky.billable_weight_g == 28800
    assert charged(bulky) == {"heavy": HEAVY}
    assert bulky.price_cents == 3690 + HEAVY
    assert charged(q(ws, "EU", 12000, (50, 50, 40))) == {}, "20000 g billable is not over 20 kg"
    assert charged(q(ws, "EU", 12000, (50, 50, 41))) == {"heavy": HEAVY}  # 20500 g
    assert charged(q(ws, "EU", 20001, SMALL)) == {"heavy": HEAVY}


def test_billable_over_the_maximum_is_top_band_not_freight(ws):
    big = q(ws, "EU", 10000, (80, 60, 50))  # 48000 g volumetric, 10 kg on the scale
    assert big.base_cents == 3690
    assert big.price_cents == 3690 + HEAVY
    edge = q(ws, "WORLD", 31500, (100, 60, 60))
    assert edge.base_cents == 9990
    assert charged(edge) == {"heavy": HEAVY}


@pytest.mark.parametrize("weight_g,dims", [(31501, SMALL), (32000, (80, 60, 50)), (40000, (20, 20, 20))])
def test_freight_is_decided_by_actual_weight(ws, weight_g, dims):
    with pytest.raises(ValueError):
        q(ws, "EU", weight_g, dims)


def test_oversize_surcharge_unchanged(ws):
    assert "oversize" not in charged(q(ws, "EU", 3000, (110, 10, 10))), "SHIP-143 is undecided"
    assert "oversize" not in charged(q(ws, "EU", 3000, (120, 10, 10)))
    assert charged(q(ws, "EU", 3000, (121, 10, 10))) == {"oversize": OVERSIZE}


def test_free_shipping_rule_unchanged(ws):
    assert q(ws, "EU", 1000, SMALL, 10000).price_cents == 0
    assert not q(ws, "EU", 1000, SMALL, 9999).free
    assert not q(ws, "DOMESTIC", 1000, SMALL, 5000).free, "the 50 EUR threshold (SHIP-141) was never approved"
    assert not q(ws, "UK", 1000, SMALL, 50000).free
    bulky = q(ws, "EU", 12000, (60, 60, 40), 15000)
    assert bulky.free and bulky.price_cents == HEAVY, "free shipping waives the band price only"


def test_api_reports_billable_weight(ws):
    status, body = ws["api"].handle_quote({"zone": "eu", "weight_g": 2100, "dims_cm": [40, 30, 30]})
    assert status == 200
    assert body["billable_weight_g"] == 7200
    assert body["weight_g"] == 2100
    assert body["price_cents"] == 2490
    status, body = ws["api"].handle_quote({"zone": "EU", "weight_g": 10000, "dims_cm": [80, 60, 50]})
    assert status == 200 and body["price_cents"] == 3690 + HEAVY
    status, body = ws["api"].handle_quote({"zone": "EU", "weight_g": 1950, "dims_cm": [10, 10, 10]})
    assert body["billable_weight_g"] == 1950
    status, body = ws["api"].handle_quote({"zone": "EU", "weight_g": 31600, "dims_cm": [10, 10, 10]})
    assert status == 400


def cli(ws, *args):
    # main(argv) in the probe, with what it printed on standard output.
    got = ws["cli"].main.capture(list(args))
    return got.value, got.stdout.splitlines()


def test_cli_shows_billable_weight(ws):
    code, lines = cli(ws, "EU", "1000", "41x29x17")
    assert code == 0
    assert "billable weight: 4100 g" in [line.strip() for line in lines]
    assert "price: 17.90 EUR" in lines
    _, lines = cli(ws, "EU", "1950", "10x10x10")
    assert "billable weight: 1950 g" in [line.strip() for line in lines]


def test_carrier_contracts_unchanged(ws):
    """Contracts price by 'under N kg': what carriers charge us is not the price list."""
    b = ws["builtins"]
    for mod in ws["carriers"].values():
        # The module's carrier instance (not the Carrier class), found in the probe.
        carrier = next(v for v in b.vars(mod).values()
                       if isinstance(v, nabverify.RemoteObject) and b.hasattr(v, "tariff_cents") is True
                       and b.isinstance(v, b.type) is False)
        steps = list(carrier.steps)
        assert steps and all(type(u) is int and type(c) is int for u, c in steps), steps
        for (under, cents), (_, next_cents) in zip(steps, steps[1:]):
            assert carrier.tariff_cents(under - 1) == cents, f"{carrier.name} {under - 1} g"
            assert carrier.tariff_cents(under) == next_cents, f"{carrier.name} {under} g"


def test_changelog_names_the_ticket():
    data = nabverify.read(f"{WS}/CHANGELOG.md")  # a regular file, never a link
    assert data is not None, "CHANGELOG.md is missing, or not a regular file"
    text = data.decode("utf-8")
    unreleased = text.split("## Unreleased", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"\bSHIP-142\b", unreleased), "no Unreleased entry naming the ticket"
    for other in ("SHIP-141", "SHIP-143", "SHIP-145"):
        assert other not in unreleased
