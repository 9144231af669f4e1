"""Hidden checks: each tenant's policy is built from the defaults, its tier and its own limits
only, whatever else the configuration holds. The workspace's code runs with node, started by
the broker as the sandbox user with a clean environment (the CLI, and
/nab/probes/probe.js, which prints what resolvePolicy returned); its inputs are written
through the broker, and these tests only read what it prints."""
import itertools
import json

import nabverify as nv
import pytest

WS = "/workspace"
PROBE = "/nab/probes/probe.js"
ENV = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LC_ALL": "C.UTF-8"}
_DIRS = itertools.count(1)

EXEMPT = ["^\\/health$", "^\\/metrics$"]
HEADERS = {"prefix": "X-RateLimit", "retryAfter": True}

SAMPLE = [
    {"id": "acme", "tier": "standard"},
    {"id": "globex", "tier": "pro", "limits": {"keyBy": "apiKey"}},
    {"id": "bulk-import", "tier": "batch", "limits": {"burst": {"size": 200}}},
    {"id": "initech", "tier": "standard", "limits": {"limit": 90}},
    {"id": "hooli", "tier": "standard", "limits": {"window": {"size": "30s"}, "keyBy": "ip"}},
    {"id": "ops-dashboard", "tier": "internal"},
]


def planned(tenant, tier, limit, window, burst, refill, key_by="byApiKeyOrIp", headers=HEADERS):
    return {"tenant": tenant, "tier": tier, "limit": limit, "window": {"size": window},
            "burst": {"size": burst, "refillPerSec": refill}, "keyBy": key_by,
            "exempt": EXEMPT, "headers": headers}


SAMPLE_PLAN = {
    "acme": planned("acme", "standard", 60, "1m", 10, 1),
    "globex": planned("globex", "pro", 600, "1m", 50, 10, key_by="byApiKey"),
    "bulk-import": planned("bulk-import", "batch", 120, "10m", 200, 5),
    "initech": planned("initech", "standard", 90, "1m", 10, 1),
    "hooli": planned("hooli", "standard", 60, "30s", 10, 1, key_by="byIp"),
    "ops-dashboard": planned("ops-dashboard", "internal", "unlimited", "1m", 10, 1,
                             headers={"prefix": "X-RateLimit", "retryAfter": False}),
}


def node(*args, timeout=30):
    r = nv.run(["node", *args], env=ENV, cwd=WS, timeout=timeout)
    assert r.ok, f"node {' '.join(args[:2])}: {r.describe()}"
    return r.stdout


@pytest.fixture
def scratch():
    """A fresh folder for a test's inputs, in the sandbox user's /tmp (written through the
    broker, so the code under test can read them)."""
    return f"/tmp/nab-inputs/{next(_DIRS)}"


def write_config(scratch, tenants, name="tenants.json"):
    p = f"{scratch}/{name}"
    nv.write(p, json.dumps({"tenants": tenants}))
    return p


def plan(scratch, tenants):
    out = json.loads(node(f"{WS}/bin/turnstile.js", "plan", "--config", write_config(scratch, tenants), "--json"))
    return {d["tenant"]: d for d in out}


def simulate(scratch, tenants, requests):
    reqs = f"{scratch}/requests.jsonl"
    nv.write(reqs, "".join(json.dumps(r) + "\n" for r in requests))
    return node(f"{WS}/bin/turnstile.js", "simulate", "--config", write_config(scratch, tenants),
                "--requests", reqs).splitlines()


def probe(tenants):
    return json.loads(node(PROBE, json.dumps(tenants)))


def test_sample_plan_each_tenant_from_its_own_layers(scratch):
    assert plan(scratch, SAMPLE) == SAMPLE_PLAN


@pytest.mark.parametrize("order", ["reversed", "interleaved"])
def test_order_of_tenants_does_not_matter(scratch, order):
    tenants = SAMPLE[::-1] if order == "reversed" else SAMPLE[1::2] + SAMPLE[0::2]
    assert plan(scratch, tenants) == SAMPLE_PLAN


def test_a_tenant_alone_and_among_others_is_the_same(scratch):
    for t in SAMPLE:
        assert plan(scratch, [t]) == {t["id"]: SAMPLE_PLAN[t["id"]]}


def test_nested_settings_merge_key_by_key(scratch):
    got = plan(scratch, [
        {"id": "p1", "tier": "pro", "limits": {"burst": {"refillPerSec": 3}}},
        {"id": "b1", "tier": "batch", "limits": {"burst": {"size": 40}, "window": {"size": "1h"}}},
        {"id": "s1", "tier": "standard", "limits": {"headers": {"prefix": "X-Quota"}}},
        {"id": "i1", "tier": "internal", "limits": {"headers": {"retryAfter": True}, "limit": 500}},
        {"id": "s2", "tier": "standard"},
    ])
    assert got["p1"]["burst"] == {"size": 50, "refillPerSec": 3}
    assert got["b1"]["burst"] == {"size": 40, "refillPerSec": 5} and got["b1"]["window"] == {"size": "1h"}
    assert got["s1"]["headers"] == {"prefix": "X-Quota", "retryAfter": True}
    assert got["i1"]["headers"] == HEADERS and got["i1"]["limit"] == 500
    assert got["s2"] == planned("s2", "standard", 60, "1m", 10, 1)


def test_legacy_keys_and_unlimited(scratch):
    got = plan(scratch, [
        {"id": "old", "tier": "batch", "limits": {"burst_size": 30, "limit": "unlimited"}},
        {"id": "new", "tier": "batch"},
    ])
    assert got["old"]["burst"] == {"size": 30, "refillPerSec": 5} and got["old"]["limit"] == "unlimited"
    assert got["new"]["burst"] == {"size": 10, "refillPerSec": 5} and got["new"]["limit"] == 120


def test_resolving_leaves_the_defaults_as_they_were():
    seen = probe(SAMPLE + [{"id": "x", "tier": "pro", "limits": {"exempt": ["^/status$"], "headers": {"prefix": "X-P"}}}])
    assert seen["before"] == seen["after"] == {
        "limit": 60, "window": {"size": 60000}, "burst": {"size": 10, "refillPerSec": 1},
        "keyBy": "fn:byApiKeyOrIp", "exempt": ["re:" + e for e in EXEMPT], "headers": HEADERS,
    }


def test_resolving_again_gives_the_same_policy():
    seen = probe(SAMPLE)
    assert seen["again"] == seen["first"]
    acme, ops = seen["first"][0], seen["first"][5]
    assert acme == {"tenant": "acme", "tier": "standard", "limit": 60, "window": {"size": 60000},
                    "burst": {"size": 10, "refillPerSec": 1}, "keyBy": "fn:byApiKeyOrIp",
                    "exempt": ["re:" + e for e in EXEMPT], "headers": HEADERS}
    assert ops["limit"] == "Infinity" and ops["keyBy"] == "fn:byApiKeyOrIp"


def test_simulate_burst_is_per_tenant(scratch):
    tenants = [SAMPLE[2], SAMPLE[0]]
    reqs = [{"at": 1000, "tenant": t, "ip": "10.0.0.7", "path": "/v1/items"} for t in ("bulk-import", "acme") for _ in range(12)]
    reqs.append({"at": 1000, "tenant": "acme", "ip": "10.0.0.7", "path": "/health"})
    lines = simulate(scratch, tenants, reqs)
    assert len(lines) == 25
    bulk, acme = lines[:12], lines[12:24]
    assert all(" allow " in ln for ln in bulk), bulk
    assert [ln.split()[3] for ln in acme] == ["allow"] * 10 + ["deny"] * 2
    assert acme[9] == "1000 acme ip:10.0.0.7 allow X-RateLimit-Limit=60 X-RateLimit-Remaining=50"
    assert acme[10] == "1000 acme ip:10.0.0.7 deny (burst) X-RateLimit-Limit=60 X-RateLimit-Remaining=50 Retry-After=1"
    assert lines[24] == "1000 acme - exempt"


@pytest.mark.parametrize("first", ["hooli", "acme"])
def test_simulate_windows_are_per_tenant(scratch, first):
    tenants = [{"id": "acme", "tier": "standard", "limits": {"limit": 3}},
               {"id": "hooli", "tier": "standard", "limits": {"limit": 3, "window": {"size": "30s"}, "keyBy": "ip"}},
               {"id": "ops-dashboard", "tier": "internal"}]
    if first == "hooli":
        tenants = tenants[1:] + tenants[:1]
    reqs = [{"at": 2000 * i, "tenant": t, "ip": "10.1.1.1", "apiKey": "k1", "path": "/v1/x"}
            for t in ("acme", "hooli") for i in range(1, 5)]
    reqs += [{"at": 9000, "tenant": "ops-dashboard", "apiKey": "dash", "path": "/v1/x"} for _ in range(15)]
    lines = simulate(scratch, tenants, reqs)
    assert lines[3] == "8000 acme key:k1 deny (window) X-RateLimit-Limit=3 X-RateLimit-Remaining=0 Retry-After=52"
    assert lines[7] == "8000 hooli ip:10.1.1.1 deny (window) X-RateLimit-Limit=3 X-RateLimit-Remaining=0 Retry-After=22"
    assert lines[8:] == ["9000 ops-dashboard key:dash allow"] * 15
