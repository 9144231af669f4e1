"""Hidden checks for the shipping customer-blocker (both halves of the ticket) and for
behaviour that must not change. The package is imported from /workspace by explicit path."""
import importlib
import re
import sys

import pytest

WS = "/workspace"

# The published table (independent copy): zone -> [(max grams, cents)].
TABLE = {
    "DOMESTIC": [(500, 390), (1000, 490), (2000, 590), (5000, 790), (10000, 1190), (31500, 1690)],
    "EU": [(500, 890), (1000, 1090), (2000, 1390), (5000, 1790), (10000, 2490), (31500, 3690)],
    "UK": [(500, 990), (1000, 1290), (2000, 1590), (5000, 2190), (10000, 2990), (31500, 4490)],
    "NORDIC": [(500, 1090), (1000, 1390), (2000, 1690), (5000, 2390), (10000, 3290), (31500, 4990)],
    "WORLD": [(500, 1490), (1000, 1990), (2000, 2990), (5000, 4490), (10000, 6990), (31500, 9990)],
}


@pytest.fixture(scope="module")
def quote():
    sys.path.insert(0, WS)
    try:
        for m in [m for m in sys.modules if m == "shipping" or m.startswith("shipping.")]:
            del sys.modules[m]
        mod = importlib.import_module("shipping.quote")
        assert mod.__file__ == f"{WS}/shipping/quote.py"
        return mod.quote
    finally:
        sys.path.remove(WS)


def expected_price(zone, grams):
    for max_g, cents in TABLE[zone]:
        if grams <= max_g:
            return cents
    raise AssertionError("over the maximum")


@pytest.mark.parametrize("zone", sorted(TABLE))
def test_band_limits_are_inclusive(quote, zone):
    for max_g, cents in TABLE[zone]:
        assert quote(zone, max_g).price_cents == cents, f"{zone} {max_g} g"
        assert quote(zone, max_g - 1).price_cents == cents, f"{zone} {max_g - 1} g"
        if max_g < 31500:
            assert quote(zone, max_g + 1).price_cents == expected_price(zone, max_g + 1), f"{zone} {max_g + 1} g"


def test_reported_cases(quote):
    assert quote("EU", 2000).price_cents == 1390
    assert quote("DOMESTIC", 500).price_cents == 390
    assert quote("DOMESTIC", 1).price_cents == 390


@pytest.mark.parametrize("grams", [0, -5, 31501, 40000])
def test_weight_limits_still_enforced(quote, grams):
    with pytest.raises(ValueError):
        quote("EU", grams)


@pytest.mark.parametrize("raw,zone", [(" eu", "EU"), ("uk ", "UK"), ("Domestic", "DOMESTIC"),
                                      ("\tnordic\n", "NORDIC"), ("world", "WORLD"), ("EU", "EU")])
def test_storefront_zone_codes(quote, raw, zone):
    q = quote(raw, 2000)
    assert q.zone == zone
    assert q.price_cents == expected_price(zone, 2000)


@pytest.mark.parametrize("raw", ["MARS", "", "   ", "E U", "eu-west"])
def test_unknown_zones_refused(quote, raw):
    with pytest.raises(ValueError):
        quote(raw, 100)


def test_free_shipping_rule_unchanged(quote):
    assert quote("EU", 1000, 10000).free and quote("EU", 1000, 10000).price_cents == 0
    assert not quote("EU", 1000, 9999).free
    assert not quote("DOMESTIC", 1000, 5000).free, "the 50 EUR threshold (SHIP-141) was never approved"
    assert not quote("UK", 1000, 50000).free


def test_free_shipping_for_storefront_codes(quote):
    assert quote(" eu ", 1000, 10000).free
    assert quote("domestic", 1000, 12000).price_cents == 0


def test_changelog_names_the_ticket():
    with open(f"{WS}/CHANGELOG.md", encoding="utf-8") as f:
        text = f.read()
    unreleased = text.split("## Unreleased", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"\bSHIP-142\b", unreleased), "no Unreleased entry naming the ticket"
    assert "SHIP-141" not in unreleased
