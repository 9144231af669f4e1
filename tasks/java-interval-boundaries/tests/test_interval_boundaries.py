"""Hidden boundary tests of the half-open interval library: contains, overlaps, merge,
coverage and bookings, asked of the library through the probe (see conftest.py) and checked
here against the instruction's rules."""
import random

import pytest


def iv(s, e):
    return [s, e]


# ------------------------------------------------------------------ the rules, in Python

def covered(intervals):
    return {x for s, e in intervals for x in range(s, e)}


def union(intervals):
    """The instruction's merge: sorted, disjoint, non-empty, no two touching."""
    out = []
    for s, e in sorted(i for i in intervals if i[0] < i[1]):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


SMALL = [(s, e) for s in range(-2, 5) for e in range(s, 5)]


# ------------------------------------------------------------------ contains

def test_contains_is_half_open(probe):
    assert probe("contains", iv=iv(1, 3), x=1) is True
    assert probe("contains", iv=iv(1, 3), x=2) is True
    assert probe("contains", iv=iv(1, 3), x=3) is False
    assert probe("contains", iv=iv(1, 3), x=0) is False


def test_empty_interval_contains_nothing(probe):
    assert probe("contains", iv=iv(4, 4), x=4) is False


def test_contains_every_small_case(probe):
    calls = [{"op": "contains", "iv": [s, e], "x": x} for s, e in SMALL for x in range(-3, 6)]
    got = probe("batch", calls=calls)
    want = [{"value": c["iv"][0] <= c["x"] < c["iv"][1]} for c in calls]
    wrong = [(c["iv"], c["x"], g) for c, g, w in zip(calls, got, want) if g != w]
    assert len(got) == len(calls) and not wrong, f"{len(wrong)} wrong, e.g. {wrong[:5]}"


# ------------------------------------------------------------------ overlaps

def test_touching_intervals_do_not_overlap(probe):
    assert probe("overlaps", a=iv(1, 3), b=iv(3, 5)) is False
    assert probe("overlaps", a=iv(3, 5), b=iv(1, 3)) is False


def test_shared_point_overlaps(probe):
    assert probe("overlaps", a=iv(1, 4), b=iv(3, 5)) is True
    assert probe("overlaps", a=iv(1, 10), b=iv(3, 5)) is True
    assert probe("overlaps", a=iv(2, 3), b=iv(2, 3)) is True


def test_empty_interval_overlaps_nothing(probe):
    assert probe("overlaps", a=iv(3, 3), b=iv(1, 5)) is False
    assert probe("overlaps", a=iv(1, 5), b=iv(3, 3)) is False
    assert probe("overlaps", a=iv(3, 3), b=iv(3, 3)) is False


def test_overlaps_every_small_pair(probe):
    calls = [{"op": "overlaps", "a": list(a), "b": list(b)} for a in SMALL for b in SMALL]
    got = probe("batch", calls=calls)
    want = [{"value": bool(covered([c["a"]]) & covered([c["b"]]))} for c in calls]
    wrong = [(c["a"], c["b"], g) for c, g, w in zip(calls, got, want) if g != w]
    assert len(got) == len(calls) and not wrong, f"{len(wrong)} wrong, e.g. {wrong[:5]}"


# ------------------------------------------------------------------ merge

def merged(probe, *intervals):
    return probe("merge", input=[list(i) for i in intervals])["result"]


def test_touching_intervals_merge(probe):
    assert merged(probe, iv(3, 5), iv(1, 3)) == [iv(1, 5)]


def test_chain_of_touching_intervals_merges_into_one(probe):
    assert merged(probe, iv(2, 3), iv(0, 1), iv(3, 4), iv(1, 2)) == [iv(0, 4)]


def test_gaps_are_kept(probe):
    assert merged(probe, iv(3, 4), iv(1, 2)) == [iv(1, 2), iv(3, 4)]


def test_empty_intervals_are_dropped(probe):
    assert merged(probe, iv(5, 5), iv(1, 2), iv(0, 0)) == [iv(1, 2)]
    assert merged(probe, iv(7, 7)) == []


def test_empty_interval_does_not_bridge_a_gap(probe):
    assert merged(probe, iv(1, 2), iv(2, 2), iv(3, 4)) == [iv(1, 2), iv(3, 4)]


def test_nested_and_overlapping_merge(probe):
    assert merged(probe, iv(0, 10), iv(2, 3), iv(9, 10)) == [iv(0, 10)]


def test_merge_does_not_modify_its_input(probe):
    got = probe("merge", input=[iv(3, 5), iv(1, 3)])
    assert got["input_after"] == [iv(3, 5), iv(1, 3)]
    assert got["result"] == [iv(1, 5)]


def test_merge_of_random_lists_is_their_union(probe):
    rng = random.Random(20240611)
    inputs = []
    for _ in range(300):
        n = rng.randrange(0, 9)
        items = []
        for _ in range(n):
            s = rng.randrange(-6, 20)
            items.append([s, s + rng.choice([0, 0, 1, 1, 2, 3, 5, 8])])
        inputs.append(items)
    got = probe("batch", calls=[{"op": "merge", "input": i} for i in inputs])
    assert len(got) == len(inputs)
    for items, reply in zip(inputs, got):
        assert reply == {"value": {"result": union(items), "input_after": items}}, f"merge({items})"


# ------------------------------------------------------------------ coverage and bookings

def test_coverage_counts_touching_once(probe):
    assert probe("coverage", input=[iv(1, 3), iv(3, 5), iv(4, 4)]) == 4


def test_coverage_of_random_lists(probe):
    rng = random.Random(7)
    inputs = [[[s, s + rng.randrange(0, 6)] for s in (rng.randrange(-5, 15) for _ in range(rng.randrange(0, 7)))]
              for _ in range(100)]
    got = probe("batch", calls=[{"op": "coverage", "input": i} for i in inputs])
    assert got == [{"value": len(covered(i))} for i in inputs]


def test_back_to_back_bookings_are_allowed(probe):
    got = probe("booking", book=[iv(9, 10), iv(10, 11), iv(10, 12)])
    assert got["booked"] == [True, True, False]
    assert got["schedule"] == [iv(9, 11)]


def test_overlapping_bookings_are_refused_touching_ones_allowed(probe):
    got = probe("booking", book=[iv(2, 6), iv(5, 7), iv(6, 8), iv(0, 2), iv(1, 3)])
    assert got["booked"] == [True, False, True, True, False]
    assert got["schedule"] == [iv(0, 8)]
