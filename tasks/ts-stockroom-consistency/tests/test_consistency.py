"""Hidden checks of README.md's "Consistency" rules (and the API it names). The broker copies
/workspace/src into a scratch folder, puts the shipped tsconfig.json and unit tests beside it,
compiles it with tsc and runs, as the sandbox user with a clean environment, the probe of
these tests (probes/stockprobe.js): it drives a Stockroom over a store whose loads and saves
it holds, fails and releases, and prints what it observed. Every expected value is here."""
import functools
import json

import nabverify as nv
import pytest

ENV = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LC_ALL": "C.UTF-8"}
BUILD = "/tmp/nab-stockroom"
DIST = "/tmp/nab-stockroom-dist"
PROBE = "/nab/probes/stockprobe.js"

COPY = f"""set -eu
rm -rf {BUILD} {DIST}
mkdir -p {BUILD}/test
cp -R /workspace/src {BUILD}/src
cp /nab/probes/tsconfig.json {BUILD}/tsconfig.json
cp /nab/probes/workspace_run.ts {BUILD}/test/run.ts
"""


@pytest.fixture(scope="session")
def dist():
    r = nv.run(["bash", "-c", COPY], env=ENV, cwd="/tmp", timeout=30)
    assert r.ok, f"copying the workspace failed: {r.describe()}"
    r = nv.run(["tsc", "-p", f"{BUILD}/tsconfig.json", "--outDir", DIST], env=ENV, cwd=BUILD, timeout=120)
    assert r.ok, f"tsc failed:\n{r.stdout[-3000:]}{r.stderr[-2000:]}"
    entries = nv.listdir(f"{DIST}/src") or []
    assert ("index.js", "file") in entries, "tsc wrote no src/index.js"
    return DIST


@functools.lru_cache(maxsize=None)
def probe(dist, scenario):
    r = nv.run(["node", PROBE, dist, scenario], env=ENV, cwd="/tmp", timeout=30)
    assert r.ok, f"probe {scenario}: {r.describe()}"
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("{")]
    assert lines, f"probe {scenario} printed nothing: {r.describe()}"
    out = json.loads(lines[-1])
    assert "crashed" not in out, f"probe {scenario} crashed: {out['crashed'][:2000]}"
    return out


def lvl(sku, on_hand, reserved=0):
    return {"state": "ok", "value": {"sku": sku, "onHand": on_hand, "reserved": reserved, "available": on_hand - reserved}}


def err(name=None, message=None):
    def check(t):
        assert t["state"] == "error", f"expected a rejection, got {t}"
        if name:
            assert t["error"]["name"] == name, t
        if message:
            assert t["error"]["message"] == message, t
        return True
    return check


def test_workspace_unit_tests_as_shipped(dist):
    r = nv.run(["node", f"{DIST}/test/run.js"], env=ENV, cwd="/tmp", timeout=60)
    assert r.ok, r.describe()
    assert r.stdout.strip().splitlines()[-1] == "23 passed, 0 failed", r.stdout[-2000:]


def test_concurrent_reads_share_one_load_and_are_cached(dist):
    out = probe(dist, "shared_load")
    assert out["pendingWhileHeld"] == 4
    assert out["loadsWhileHeld"] == 1, "four reads while a load was in flight made more than one load"
    assert out["calls"] == [lvl("A", 10)] * 4
    assert out["later"] == lvl("A", 10)
    assert out["many"] == {"state": "ok", "value": [lvl("A", 10)["value"]] * 2}
    assert out["loads"] == 1, "a cached SKU was loaded again"


def test_read_after_each_kind_of_write(dist):
    out = probe(dist, "read_after_write")
    assert out["warm"] == {"state": "ok", "value": [lvl("A", 10)["value"], lvl("B", 5, 2)["value"], lvl("C", 0)["value"]]}
    want = {
        "adjust": [lvl("A", 15)],
        "reserve": [lvl("A", 15, 3)],
        "release": [lvl("B", 5)],
        "transfer": [lvl("A", 11, 3), lvl("C", 4)],
        "adjust-again": [lvl("C", 3)],
    }
    assert [s["name"] for s in out["steps"]] == list(want)
    for s in out["steps"]:
        levels = want[s["name"]]
        if s["name"] == "transfer":
            assert s["write"] == {"state": "ok", "value": [x["value"] for x in levels]}, s
        else:
            assert s["write"] == levels[0], s
        assert s["reads"] == levels, f"{s['name']}: a read started after the write resolved: {s['reads']}"
        assert s["levels"] == {"state": "ok", "value": [x["value"] for x in levels]}, s


def test_read_after_write_while_an_older_load_is_in_flight(dist):
    out = probe(dist, "inflight_joiner")
    assert out["write"] == lvl("A", 15)
    assert out["first"] in (lvl("A", 10), lvl("A", 15))
    assert out["after"] == lvl("A", 15), "a read started after the write resolved got the older load's record"
    assert out["again"] == lvl("A", 15)
    assert out["last"] == lvl("A", 15)


@pytest.mark.parametrize("kind,want", [("adjust", lvl("A", 15)), ("reserve", lvl("A", 10, 6)), ("transfer", lvl("A", 11))])
def test_a_load_older_than_a_write_is_not_kept(dist, kind, want):
    out = probe(dist, "inflight_not_kept")[kind]
    assert out["write"]["state"] == "ok", out
    assert out["first"]["state"] == "ok", out
    assert out["later"] == want, f"after {kind}, the record of a load started before it stayed in the cache"
    assert out["last"] == want


def test_failed_load_rejects_its_callers_and_is_not_kept(dist):
    out = probe(dist, "failed_load")
    assert out["loadsWhileHeld"] == 1
    err(message="store timeout: load B")(out["a"])
    err(message="store timeout: load B")(out["b"])
    assert out["next"] == lvl("B", 7), "the SKU kept failing after its failed load"
    assert out["loadsAfter"] == 2
    err(message="store timeout: load C")(out["c1"])
    assert out["c2"] == lvl("C", 0)
    assert out["c3"] == lvl("C", 0)
    assert out["loadsC"] == 2


def test_writes_queued_behind_a_failed_write_are_applied_in_order(dist):
    out = probe(dist, "queued_writes")
    assert out["pendingWhileHeld"] == 7
    w = out["writes"]
    err(message="store timeout: save A")(w[0])
    assert w[1] == lvl("A", 13), f"the write queued behind a failed save: {w[1]}"
    err(name="InsufficientStockError")(w[2])
    assert w[3] == lvl("A", 11), f"the write queued behind a refused one: {w[3]}"
    assert w[4] == lvl("A", 11, 4)
    err(name="UnknownReservationError")(w[5])
    assert w[6] == lvl("A", 12, 4)
    assert [(s["onHand"], s["reservations"]) for s in out["saved"]] == [
        (13, {}), (11, {}), (11, {"SO-8": 4}), (12, {"SO-8": 4})]
    assert out["level"] == lvl("A", 12, 4)
    assert out["store"] == {"onHand": 12, "reserved": 4}


def test_failed_save_leaves_what_level_returns_unchanged(dist):
    out = probe(dist, "failed_save")
    err(message="store timeout: save A")(out["write"])
    assert out["storeA"] == {"onHand": 10, "reserved": 0}
    assert out["now"] == lvl("A", 10), "level() returned a record whose save failed"
    assert out["later"] == lvl("A", 10)
    err(message="store timeout: save T")(out["transfer"])
    for sku, store_key, reads in (("S", "storeS", ("s1", "s2")), ("T", "storeT", ("t1", "t2"))):
        held = out[store_key]
        for r in reads:
            assert out[r] == lvl(sku, held["onHand"], held["reserved"]), (
                f"after a transfer whose save failed, level({sku}) is {out[r]} but the store holds {held}")


def test_read_right_after_a_write_whose_save_was_in_flight(dist):
    out = probe(dist, "read_during_save")
    assert out["savingA"] is True
    assert out["write"] == lvl("A", 15)
    assert out["during"] in (lvl("A", 10), lvl("A", 15))
    assert out["storeA"] == {"onHand": 15, "reserved": 0}
    assert out["after"] == lvl("A", 15), "a read started after the write resolved got the record from before it"
    assert out["later"] == lvl("A", 15), "the record from before the write stayed in the cache"
    assert out["savingS"] is True
    err(message="store timeout: save T")(out["transfer"])
    assert out["duringS"] in (lvl("S", 20), lvl("S", 15))
    assert out["storeS"] == {"onHand": 15, "reserved": 0} and out["storeT"] == {"onHand": 1, "reserved": 0}
    assert out["afterS"] == lvl("S", 15), "after a transfer whose second save failed, level() of its source is not what the store holds"
    assert out["afterT"] == lvl("T", 1)
    assert out["laterS"] == lvl("S", 15), "the source's record from before the transfer stayed in the cache"


def test_skus_are_independent(dist):
    out = probe(dist, "independent")
    assert out["whileLoadHeld"] == {"readB": lvl("B", 5), "adjustB": lvl("B", 6), "reserveB": lvl("B", 6, 2)}, (
        "calls for B waited on A's load")
    assert out["whileSaveHeld"] == {
        "readB": lvl("B", 6, 2), "releaseB": lvl("B", 6),
        "transferBC": {"state": "ok", "value": [lvl("B", 5)["value"], lvl("C", 4)["value"]]},
        "readC": lvl("C", 4)}, "calls for B and C waited on A's save"
    assert out["stateA"] == {"readA": "pending", "writeA": "pending"}
    assert out["readA"] in (lvl("A", 10), lvl("A", 12))
    assert out["writeA"] == lvl("A", 12)
    assert out["finalA"] == lvl("A", 12)
