"""Hidden checks of the calc build: each test copies the workspace (without build outputs)
to a scratch folder, runs make with a clean environment and inspects what it did. Rebuild
checks set every mtime explicitly (no sleeps).

The runner (this process, the verifier user) never touches the copies: make and the built
programs run as the sandbox user through nabverify.run (make runs the workspace's recipes),
and so do the file operations (copy, mtimes, modes, contents): probes/calcfs.py, a script
driven line by line, returns them as plain values. Every expectation is here."""
import os

import pytest

import nabverify as nv

# The make environment the old tests gave: HOME, PATH and LANG only; with ccache's
# compiler names first on PATH and its cache in the check's /tmp, so the ~25 builds of the
# same sources compile each unchanged file once (a cached object is the one the compiler
# made from the same preprocessed input and flags; make's decisions are its own).
ENV = {"HOME": "/tmp", "PATH": "/usr/lib/ccache:/usr/bin:/bin", "LANG": "C.UTF-8",
       "CCACHE_DIR": "/tmp/nab-ccache",
       "TMPDIR": None, "PYTHONDONTWRITEBYTECODE": None, "PYTHONPYCACHEPREFIX": None}


class FileProbe:
    """probes/calcfs.py, run as the sandbox user: `fs.NAME(*args)` calls its NAME and returns
    the plain value it answered. A probe that died is started again for the next call (the
    call that saw it die fails)."""

    def __init__(self):
        self.proc = None

    def __getattr__(self, name):
        def call(*args):
            if self.proc is None or self.proc.dead:
                self.proc = nv.spawn(["python3", "-I", "/nab/probes/calcfs.py"], cwd="/tmp")
            reply = self.proc.call_json({"op": name, "args": list(args)}, timeout=120)
            assert isinstance(reply, dict) and ("ok" in reply or "error" in reply), f"calcfs: {reply!r:.200}"
            assert "error" not in reply, f"calcfs {name}{tuple(args)!r:.300}: {reply['error']}"
            return reply["ok"]
        return call


fs = FileProbe()

_names = fs.names()
MODS, PROGS, TESTS, HEADERS = (list(_names[k]) for k in ("mods", "progs", "tests", "headers"))
SOURCES = [f"lib/{m}.c" for m in MODS] + [f"src/{p}.c" for p in PROGS] + [f"tests/{t}.c" for t in TESTS]
BUILT_BY_ALL = [s for s in SOURCES if not s.startswith("tests/")]


def run(d, argv, timeout=180):
    return nv.run(argv, cwd=d, env=ENV, timeout=timeout)


def make(d, *args, check=True):
    r = run(d, ["make", *args])
    if check:
        assert r.ok, f"make {' '.join(args)} failed ({r.describe()}):\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r


def fresh():
    return fs.fresh(PROGS)


def without_build(snap):
    return {k: v for k, v in snap.items() if not k.startswith("build/")}


def obj(src):
    return "build/obj/" + src[:-2] + ".o"


def is_file(d, rel):
    return fs.kinds(d, [rel])[rel] == "file"


def exists(d, rel):
    return fs.kinds(d, [rel])[rel] is not None


def settle(d, t0=1_600_000_000, touched=()):
    """Sources at t0, every build product and directory at t0+100, then `touched` at t0+300."""
    fs.settle(d, t0, [(rel, t0 + 300) for rel in touched])
    return t0


def rebuilt(d, t0):
    times = fs.mtimes(d, [obj(s) for s in BUILT_BY_ALL])
    missing = sorted(k for k, v in times.items() if v is None)
    assert not missing, f"objects missing after the build: {missing}"
    return {s for s in BUILT_BY_ALL if times[obj(s)] > t0 + 150}


def newer(d, rel, t0):
    t = fs.mtimes(d, [rel])[rel]
    assert t is not None, f"{rel} is missing"
    return t > t0 + 150


def includers(d):
    """header (relative path) -> set of sources that include it directly or indirectly, per gcc."""
    r = run(d, ["gcc", "-MM", "-Iinclude", "-Ibuild/include", *SOURCES])
    assert r.ok, "gcc -MM failed: " + r.describe()
    users = {}
    text = r.stdout.replace("\\\n", " ")
    for line in text.splitlines():
        if ":" not in line:
            continue
        _, deps = line.split(":", 1)
        deps = deps.split()
        src = deps[0]
        for h in deps[1:]:
            if src in BUILT_BY_ALL:
                users.setdefault(h, set()).add(src)
    return users


@pytest.fixture(scope="module")
def built():
    d = fresh()
    make(d, "-j8")
    return d


@pytest.fixture
def proj():
    return fresh()


@pytest.fixture
def tmp_path():
    """A scratch folder of the sandbox user's (make writes there)."""
    return fs.scratch()


def expected_install():
    files = {f"bin/{p}": 0o755 for p in PROGS}
    files["lib/libcalc.a"] = 0o644
    for h in sorted(set(HEADERS) | {"ops.h"}):
        files[f"include/calc/{h}"] = 0o644
    files["share/man/man1/calc.1"] = 0o644
    return files


# The tests run in this order so that a Makefile that misses a rule meets a cheap test that
# catches it early (`nab validate` stops a known-wrong solution at its first failing test):
# the rebuild checks on one shared build first, the slow ones (clean trees built again and
# again, every header touched in turn) last. Each test stands alone: the shared build's
# tests set every mtime themselves (settle), the others start from a fresh copy.


def test_second_make_does_nothing(built):
    t0 = settle(built)
    assert make(built, "-q", check=False).exit == 0, "make -q says something is out of date"
    make(built)
    times = fs.product_mtimes(built)
    assert times and all(t == t0 + 100 for t in times.values()), sorted(k for k, t in times.items() if t != t0 + 100)


def test_static_library_holds_every_lib_object(built):
    r = run(built, ["ar", "t", "build/lib/libcalc.a"])
    assert r.ok, r.describe()
    assert sorted(r.stdout.split()) == sorted(f"{m}.o" for m in MODS)


def test_programs_work(built):
    r = run(built, ["build/bin/calc", "5"], timeout=10)
    assert r.stdout.strip() == "15"
    r = run(built, ["build/bin/calc-ops"], timeout=10)
    assert r.stdout.split() == ["add", "sub", "mul", "div", "neg"]


def test_source_change_rebuilds_one_object(built):
    t0 = settle(built, touched=["lib/fmt.c"])
    make(built, "-j8")
    assert rebuilt(built, t0) == {"lib/fmt.c"}
    assert newer(built, "build/lib/libcalc.a", t0)
    assert all(newer(built, f"build/bin/{p}", t0) for p in PROGS)


@pytest.mark.parametrize("prefix", [None, "/opt/calc"])
def test_install_layout_under_destdir(proj, tmp_path, prefix):
    dest = tmp_path + "/stage"
    args = ["-j8", "install", f"DESTDIR={dest}"] + ([f"PREFIX={prefix}"] if prefix else [])
    make(proj, *args)
    root = (prefix or "/usr/local").lstrip("/")
    assert fs.modes(dest) == {os.path.join(root, k): v for k, v in expected_install().items()}
    r = nv.run([f"{dest}/{root}/bin/calc", "1"], cwd="/tmp", env=ENV, timeout=10)
    assert r.stdout.strip() == "11"


def test_check_fails_when_a_test_fails(proj):
    make(proj, "-j8")
    assert fs.replace(proj, "lib/sort.c", "return x +", "return 1000 + x +") >= 1
    r = make(proj, "-j8", "check", check=False)
    assert r.exit != 0
    assert "FAIL t_sort" in r.stdout + r.stderr


def test_generated_header_content_change(proj):
    make(proj, "-j8")
    fs.append(proj, "lib/ops.def", "mod % 2\n")
    make(proj, "-j8")
    r = run(proj, ["build/bin/calc-ops"], timeout=10)
    assert r.stdout.split()[-1] == "mod"


@pytest.mark.parametrize("source", ["tools/mkops.awk", "lib/ops.def"])
def test_generated_header_follows_its_sources(built, source):
    users = includers(built)["build/include/calc/ops.h"]
    assert len(users) >= 3
    t0 = settle(built, touched=[source])
    make(built, "-j8")
    assert newer(built, "build/include/calc/ops.h", t0)
    assert rebuilt(built, t0) == users


def test_targets_run_despite_stray_files(proj, tmp_path):
    for stray in ("all", "check", "install", "clean"):
        fs.write(proj, stray, "stray\n")
    make(proj, "all")
    assert is_file(proj, "build/bin/calc")
    assert "PASS t_buf" in make(proj, "check").stdout
    make(proj, "install", f"DESTDIR={tmp_path}/stage")
    assert fs.kinds(tmp_path, ["stage/usr/local/bin/calc"])["stage/usr/local/bin/calc"] == "file"
    make(proj, "clean")
    assert not exists(proj, "build")


def test_check_runs_every_test(proj):
    r = make(proj, "-j8", "check")
    for t in TESTS:
        assert f"PASS {t}" in r.stdout


def test_outputs_only_under_build(proj):
    before = fs.snapshot(proj)
    make(proj, "-j8")
    make(proj, "-j8", "check")
    after = without_build(fs.snapshot(proj))
    assert after == before, f"files outside build/ changed: {sorted(set(after) ^ set(before))}"
    k = fs.kinds(proj, [obj(s) for s in SOURCES])
    for s in SOURCES:
        assert k[obj(s)] == "file", f"{obj(s)} missing"


@pytest.mark.parametrize("target", ["build/bin/calc", "build/bin/calc-ops", "build/lib/libcalc.a",
                                    "build/obj/lib/eval.o", "build/include/calc/ops.h",
                                    # objects outside lib/ that include the generated header
                                    "build/obj/src/calc.o", "build/obj/tests/t_eval.o"])
def test_single_target_from_clean_tree(proj, target):
    make(proj, "-j8", target)
    assert is_file(proj, target)


def test_repeated_clean_parallel_builds(proj):
    for _ in range(3):
        make(proj, "-j8")
        k = fs.kinds(proj, [f"build/bin/{p}" for p in PROGS] + ["build/include/calc/ops.h"])
        assert all(v == "file" for v in k.values()), k
        make(proj, "clean")
        assert not exists(proj, "build")


def test_clean_leaves_nothing(proj, tmp_path):
    before = fs.snapshot(proj)
    make(proj, "-j8")
    make(proj, "check")
    make(proj, "install", f"DESTDIR={tmp_path}/stage")
    make(proj, "clean")
    assert fs.snapshot(proj) == before


def test_each_header_rebuilds_exactly_its_dependents(built):
    users = includers(built)
    headers = sorted(h for h in users if h.startswith("include/"))
    assert len(headers) >= 15
    for h in headers:
        t0 = settle(built, touched=[h])
        make(built, "-j8")
        assert rebuilt(built, t0) == users[h], h
