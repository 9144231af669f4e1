"""Hidden checks of the order status: delivered only when every parcel still in the shipment
has arrived, partly delivered once at least one has, cancelled parcels left out, and an order
with no parcel left not delivered. The order code is played through the probe (see
conftest.py); the expected statuses are here."""
import itertools

import pytest

LINES = [["A", 1, 100_00], ["B", 2, 5_00]]
# setUp of every service scenario: a paid order O1.
PAID_O1 = [("service", 10_000_00), ("place", "O1", "C1", LINES), ("pay", "O1")]


def run(probe, *steps):
    """The values of `steps` played after PAID_O1 (whose payment must have been captured)."""
    got = probe.values(*PAID_O1, *steps)
    assert got[:3] == [None, "O1", True]
    return got[3:]


def statuses(probe, *steps):
    """The status of O1 after each step of `steps`, for the steps that are ("status",)."""
    plan = [("status", "O1") if s == ("status",) else s for s in steps]
    got = run(probe, *plan)
    return [v for s, v in zip(steps, got) if s == ("status",)]


S = ("status",)


def test_first_of_two_parcels_delivered_is_partial(probe):
    assert statuses(probe, ("addParcel", "O1", "T1"), ("addParcel", "O1", "T2"),
                    ("event", "O1", "T1", "PU"), ("event", "O1", "T2", "PU"), S,
                    ("event", "O1", "T2", "DL"), S,
                    ("event", "O1", "T1", "DL"), S) == ["SHIPPED", "PARTIALLY_DELIVERED", "DELIVERED"]


def test_delivered_before_other_parcel_leaves_warehouse_is_partial(probe):
    assert statuses(probe, ("addParcel", "O1", "T1"), ("addParcel", "O1", "T2"),
                    ("event", "O1", "T1", "DL"), S) == ["PARTIALLY_DELIVERED"]


def test_three_parcels_need_all_three(probe):
    assert statuses(probe, ("addParcel", "O1", "T1"), ("addParcel", "O1", "T2"), ("addParcel", "O1", "T3"),
                    ("event", "O1", "T1", "DL"), ("event", "O1", "T3", "DL"), S,
                    ("event", "O1", "T2", "TR"), S,
                    ("event", "O1", "T2", "DL"), S) == ["PARTIALLY_DELIVERED", "PARTIALLY_DELIVERED", "DELIVERED"]


def test_single_parcel_delivered(probe):
    assert statuses(probe, ("addParcel", "O1", "T1"), S,
                    ("event", "O1", "T1", "OD"), S,
                    ("event", "O1", "T1", "DL"), S) == ["AWAITING_SHIPMENT", "SHIPPED", "DELIVERED"]


def test_cancelled_parcel_does_not_hold_back_delivery(probe):
    assert statuses(probe, ("addParcel", "O1", "T1"), ("addParcel", "O1", "T2"), ("removeParcel", "O1", "T2"),
                    ("event", "O1", "T1", "DL"), S) == ["DELIVERED"]


def test_all_parcels_cancelled_is_not_delivered(probe):
    assert statuses(probe, ("addParcel", "O1", "T1"), ("removeParcel", "O1", "T1"), S) == ["AWAITING_SHIPMENT"]
    assert probe.values(("order", "bare", "O2", "C1", [["A", 1, 1]]), ("isComplete", "bare"),
                        ("parcel", "bare", "X", "CANCELLED"), ("isComplete", "bare")) == [None, False, None, False]


def test_unpaid_and_cancelled_orders_keep_their_status(probe):
    assert run(probe, ("place", "O3", "C2", [["A", 1, 1_00]]), ("status", "O3"),
               ("cancel", "O3"), ("status", "O3")) == ["O3", "PAYMENT_PENDING", None, "CANCELLED"]


def test_policy_answers_directly(probe):
    assert probe.values(("order", "o", "O4", "C1", [["A", 1, 1]]),
                        ("parcel", "o", "P1", "DELIVERED"), ("parcel", "o", "P2", "IN_TRANSIT"),
                        ("isComplete", "o"), ("anyDelivered", "o"),
                        ("move", "o", "P2", "DELIVERED"), ("isComplete", "o")) == [
        None, None, None, False, True, None, True]


# ---------------------------------------------------------------- every mix of parcel states

STATES = ["PACKED", "IN_TRANSIT", "DELIVERED", "CANCELLED"]


def status_of(states):
    """The portal status README.md and the instruction give a paid order whose parcels are in
    `states`."""
    active = [s for s in states if s != "CANCELLED"]
    if active and all(s == "DELIVERED" for s in active):
        return "DELIVERED"
    if "DELIVERED" in active:
        return "PARTIALLY_DELIVERED"
    if any(s != "PACKED" for s in active):
        return "SHIPPED"
    return "AWAITING_SHIPMENT"


MIXES = [m for n in (1, 2, 3) for m in itertools.product(STATES, repeat=n)]


@pytest.mark.parametrize("n", [1, 2, 3])
def test_every_mix_of_parcel_states_through_the_service(probe, n):
    """Each parcel is brought to its state by the service (picked up, delivered or removed),
    one at a time, and the status is read after every step."""
    for mix in (m for m in MIXES if len(m) == n):
        steps, seen = [], []
        parcels = [f"T{i}" for i in range(n)]
        steps += [("addParcel", "O1", t) for t in parcels]
        states = ["PACKED"] * n
        steps.append(S)
        seen.append(status_of(states))
        for i, (t, target) in enumerate(zip(parcels, mix)):
            if target == "PACKED":
                continue
            if target == "CANCELLED":
                steps.append(("removeParcel", "O1", t))
            else:
                steps.append(("event", "O1", t, "PU" if target == "IN_TRANSIT" else "DL"))
            states[i] = target
            steps.append(S)
            seen.append(status_of(states))
        assert statuses(probe, *steps) == seen, f"parcels {mix}"


def test_every_mix_of_parcel_states_through_the_policy(probe):
    """DeliveryPolicy.isComplete on a bare order: at least one active parcel, all delivered."""
    steps, want = [], []
    for k, mix in enumerate(MIXES + [()]):
        name = f"o{k}"
        steps.append(("order", name, f"B{k}", "C1", [["A", 1, 1]]))
        want.append(None)
        for i, state in enumerate(mix):
            steps.append(("parcel", name, f"P{i}", None if state == "PACKED" else state))
            want.append(None)
        steps += [("isComplete", name), ("anyDelivered", name)]
        active = [s for s in mix if s != "CANCELLED"]
        want += [bool(active) and all(s == "DELIVERED" for s in active), "DELIVERED" in active]
    assert probe.values(*steps) == want
