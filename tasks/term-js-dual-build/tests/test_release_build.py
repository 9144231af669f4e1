"""Hidden checks of tinyfmt's release build. Each test copies the package (without dist/ or
node_modules/) to a scratch folder, runs `node scripts/build.mjs` there, installs what the
package publishes (package.json, README.md, dist/) as node_modules/tinyfmt of a new consumer
project and loads it with Node 18's `import` and `require`.

The runner (this process, the verifier user) never touches the copies: the build and the
consumers (probes/consume.mjs, probes/consume.cjs) run as the sandbox user through
nabverify.run with a clean environment, and so do the file operations (probes/pkgfs.py,
driven line by line), which return plain values. Every expectation is here."""
import json

import pytest

import nabverify as nv

ENV = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "TMPDIR": "/tmp",
       "PYTHONDONTWRITEBYTECODE": None, "PYTHONPYCACHEPREFIX": None}
MODES = ["import", "require"]
PRIVATE = "ERR_PACKAGE_PATH_NOT_EXPORTED"

# src/ as shipped (the instruction: src/ is correct, do not change it).
SOURCES = {
    "src/bytes.js": "3a0946908f3c69bba6fe8eb9168e412897184e00ca23a9b1775415b0703e4170",
    "src/duration.js": "cb9ddbf950c645b0f280e89a20f2cd64d19eb82b37404ef9bf92124275748a1b",
    "src/index.js": "a2f7c187df25e8e240ddc49597d800c8a6af00ce393082bce0163439f23cf61c",
    "src/plural.js": "081abca0ca035907428760f0130c06cdaae2fc682f51cf21b54039f0b45905ad",
    "src/version.js": "aba3a7cd351a98ad1f80d1b14e41a82098da6cfa60a710d7c12e4006ee5ce521",
    "src/internal/round.js": "45d9c15635cc4757cbf5d09db8fa69d169bb910d79aa7c594709d7a093052fec",
    "src/internal/text.js": "3210987f9aa62af2ff8a51135ec1331d73a1a059c227b74841a9e4d4dcb8f83e",
}

UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"]
ROOT_KEYS = ["BYTE_UNITS", "VERSION", "formatBytes", "formatClock", "formatDuration", "parse",
             "parseBytes", "plural"]
# [export, args, expected value, or an exception's name as ("threw", name)]
ROOT_CALLS = [
    ("formatBytes", [1536], "1.5 KiB"),
    ("formatBytes", [1500000, {"digits": 2}], "1.43 MiB"),
    ("formatBytes", [-2048], "-2 KiB"),
    ("formatBytes", [5e15], "4.4 PiB"),
    ("formatBytes", [1023], "1023 B"),
    ("formatBytes", ["12"], ("threw", "TypeError")),
    ("parseBytes", ["3 GiB"], 3221225472),
    ("formatDuration", [90061000], "1d 1h 1m 1s"),
    ("formatDuration", [999], "999ms"),
    ("formatClock", [45296000], "12:34:56"),
    ("parse", ["2h 30m"], 9000000),
    ("parse", ["soon"], ("threw", "RangeError")),
    ("plural", [1, "file"], "1 file"),
    ("plural", [2, "box", "boxes"], "2 boxes"),
]

# Modules of the tests' own, added to src/ of a copy, in the forms src/ uses.
ADDED = {
    "src/ratio.js": (
        "import round from './internal/round.js';\n"
        "import { trimZeros } from './internal/text.js';\n"
        "\n"
        "export const RATIO_SEP = ':';\n"
        "\n"
        "export function ratio(a, b) {\n"
        "  return `${a}${RATIO_SEP}${b}`;\n"
        "}\n"
        "\n"
        "export default function percent(part, whole, digits = 1) {\n"
        "  return `${trimZeros(round((100 * part) / whole, digits).toFixed(digits))}%`;\n"
        "}\n"
    ),
    "src/extra.js": (
        "export * from './ratio.js';\n"
        "export { default as percent, ratio as fraction } from './ratio.js';\n"
    ),
}


class FileProbe:
    """probes/pkgfs.py, run as the sandbox user: `fs.NAME(*args)` calls its NAME and returns
    the plain value it answered. A probe that died is started again for the next call."""

    def __init__(self):
        self.proc = None

    def __getattr__(self, name):
        def call(*args):
            if self.proc is None or self.proc.dead:
                self.proc = nv.spawn(["python3", "-I", "/nab/probes/pkgfs.py"], cwd="/tmp")
            reply = self.proc.call_json({"op": name, "args": list(args)}, timeout=60)
            assert isinstance(reply, dict) and ("ok" in reply or "error" in reply), f"pkgfs: {reply!r:.200}"
            assert "error" not in reply, f"pkgfs {name}{tuple(args)!r:.300}: {reply['error']}"
            return reply["ok"]
        return call


fs = FileProbe()


def build(d):
    r = nv.run(["node", "scripts/build.mjs"], cwd=d, env=ENV, timeout=60)
    assert r.ok, f"node scripts/build.mjs failed ({r.describe()}):\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}"


def fresh_build(**kw):
    d = fs.fresh(kw.pop("name", "tinyfmt"), kw.pop("version", None), kw.pop("add", None), kw.pop("stale", False))
    build(d)
    return d


def load(consumer, mode, requests):
    """What a consumer saw loading each {spec, calls} with `import` or `require`."""
    probe = {"import": "consume.mjs", "require": "consume.cjs"}[mode]
    reqs = [{"spec": spec, "calls": [[n, a] for n, a, *_ in calls]} for spec, calls in requests]
    r = nv.run(["node", f"{consumer}/{probe}", json.dumps(reqs)], cwd=consumer, env=ENV, timeout=30)
    assert r.ok, f"the {mode} consumer failed ({r.describe()}):\n{r.stderr[-2000:]}"
    lines = r.stdout.strip().splitlines()
    assert lines, f"the {mode} consumer printed nothing:\n{r.stderr[-2000:]}"
    seen = json.loads(lines[-1])
    assert isinstance(seen, list) and len(seen) == len(requests), f"consumer output: {r.stdout[-500:]}"
    return seen


def expect_module(seen, spec, mode, keys, values, calls):
    assert seen.get("ok"), f"{mode} {spec!r} failed to load: {seen.get('code')}"
    assert seen["keys"] == keys, f"{mode} {spec!r}: exports {seen['keys']}, expected {keys}"
    for k, v in values.items():
        assert seen["values"].get(k) == v, f"{mode} {spec!r}: {k} is {seen['values'].get(k)!r}, expected {v!r}"
    for (name, args, want), got in zip(calls, seen["calls"]):
        want = {"threw": want[1]} if isinstance(want, tuple) else {"value": want}
        assert got == want, f"{mode} {spec!r}: {name}(*{args!r}) gave {got}, expected {want}"


@pytest.fixture(scope="module")
def released():
    """The package built from a clean copy and installed into a consumer."""
    d = fresh_build()
    return d, fs.consumer(d)


def test_sources_unchanged():
    assert fs.tree("/workspace", "src") == SOURCES


@pytest.mark.parametrize("mode", MODES)
def test_root_entry(released, mode):
    _, c = released
    [seen] = load(c, mode, [("tinyfmt", ROOT_CALLS)])
    expect_module(seen, "tinyfmt", mode, ROOT_KEYS, {"BYTE_UNITS": UNITS, "VERSION": "2.3.0"}, ROOT_CALLS)


@pytest.mark.parametrize("mode", MODES)
def test_each_module_by_its_own_name(released, mode):
    _, c = released
    plural = [("default", [0, "item"], "0 items"), ("default", [1, "entry", "entries"], "1 entry")]
    reqs = [
        ("tinyfmt/bytes", ROOT_CALLS[:7]),
        ("tinyfmt/duration", [("parseDuration", ["1d 2h"], 93600000), ("formatDuration", [61000], "1m 1s"),
                              ("formatClock", [3723000], "01:02:03")]),
        ("tinyfmt/plural", plural),
        ("tinyfmt/version", []),
        ("tinyfmt/index", ROOT_CALLS),
    ]
    seen = load(c, mode, reqs)
    expect_module(seen[0], "tinyfmt/bytes", mode, ["BYTE_UNITS", "formatBytes", "parseBytes"],
                  {"BYTE_UNITS": UNITS}, reqs[0][1])
    expect_module(seen[1], "tinyfmt/duration", mode, ["formatClock", "formatDuration", "parseDuration"], {}, reqs[1][1])
    expect_module(seen[2], "tinyfmt/plural", mode, ["default"], {}, plural)
    expect_module(seen[3], "tinyfmt/version", mode, ["VERSION"], {"VERSION": "2.3.0"}, [])
    expect_module(seen[4], "tinyfmt/index", mode, ROOT_KEYS, {"VERSION": "2.3.0"}, ROOT_CALLS)


@pytest.mark.parametrize("mode", MODES)
def test_internal_modules_are_private(released, mode):
    _, c = released
    specs = ["tinyfmt/internal/round", "tinyfmt/internal/text", "tinyfmt/internal/round.js"]
    seen = load(c, mode, [(s, []) for s in specs])
    for spec, got in zip(specs, seen):
        assert not got.get("ok") and got.get("code") == PRIVATE, f"{mode} {spec!r}: {got!r:.300}"


def test_version_comes_from_package_json():
    d = fresh_build(version="9.8.7-rc.1")
    c = fs.consumer(d)
    for mode in MODES:
        seen = load(c, mode, [("tinyfmt", []), ("tinyfmt/version", [])])
        assert seen[0].get("ok") and seen[0]["values"].get("VERSION") == "9.8.7-rc.1", f"{mode}: {seen[0]!r:.300}"
        assert seen[1].get("ok") and seen[1]["values"].get("VERSION") == "9.8.7-rc.1", f"{mode}: {seen[1]!r:.300}"


@pytest.mark.parametrize("mode", MODES)
def test_modules_added_to_src_are_published(mode):
    d = fresh_build(add=ADDED)
    c = fs.consumer(d)
    ratio = [("ratio", [16, 9], "16:9"), ("default", [1, 3], "33.3%"), ("default", [2, 3, 2], "66.67%")]
    extra = [("percent", [1, 8], "12.5%"), ("fraction", [4, 3], "4:3"), ("ratio", [5, 4], "5:4")]
    seen = load(c, mode, [("tinyfmt/ratio", ratio), ("tinyfmt/extra", extra), ("tinyfmt", ROOT_CALLS[:1])])
    expect_module(seen[0], "tinyfmt/ratio", mode, ["RATIO_SEP", "default", "ratio"], {"RATIO_SEP": ":"}, ratio)
    expect_module(seen[1], "tinyfmt/extra", mode, ["RATIO_SEP", "fraction", "percent", "ratio"], {"RATIO_SEP": ":"}, extra)
    expect_module(seen[2], "tinyfmt", mode, ROOT_KEYS, {}, ROOT_CALLS[:1])


def test_each_build_starts_dist_afresh(released):
    clean = fs.tree(released[0], "dist")
    d = fresh_build(stale=True)
    dist = fs.tree(d, "dist")
    assert dist is not None and clean is not None
    assert sorted(dist) == sorted(clean), f"dist/ differs from a clean build's: {sorted(set(dist) ^ set(clean))}"
    c = fs.consumer(d)
    for mode in MODES:
        [seen] = load(c, mode, [("tinyfmt/legacy", [])])
        assert not seen.get("ok"), f"{mode} 'tinyfmt/legacy' still loads after a new build"


def test_build_is_reproducible(released):
    first = fs.tree(released[0], "dist")
    d = fresh_build(name="tinyfmt-release")
    again = fs.tree(d, "dist")
    build(d)
    third = fs.tree(d, "dist")
    assert first and again == first, f"two folders, different dist/: {sorted(k for k in set(first) | set(again) if first.get(k) != again.get(k))}"
    assert third == again, f"two builds, different dist/: {sorted(k for k in set(third) | set(again) if third.get(k) != again.get(k))}"


def test_build_writes_only_under_dist():
    d = fs.fresh("tinyfmt", None, None, False)
    before = fs.outside_dist(d)
    build(d)
    build(d)
    after = fs.outside_dist(d)
    assert after == before, f"the build changed files outside dist/: {sorted(set(after) ^ set(before))}"
