"""Hidden checks of the calc build: each test copies the workspace (without build outputs)
to /tmp, runs make with a clean environment and inspects what it did. Rebuild checks set
every mtime explicitly (no sleeps)."""
import os
import re
import shutil
import subprocess

import pytest

WS = "/workspace"
ENV = {"HOME": "/tmp", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
MODS = sorted(f[:-2] for f in os.listdir(os.path.join(WS, "lib")) if f.endswith(".c"))
PROGS = sorted(f[:-2] for f in os.listdir(os.path.join(WS, "src")) if f.endswith(".c"))
TESTS = sorted(f[:-2] for f in os.listdir(os.path.join(WS, "tests")) if f.startswith("t_") and f.endswith(".c"))
SOURCES = [f"lib/{m}.c" for m in MODS] + [f"src/{p}.c" for p in PROGS] + [f"tests/{t}.c" for t in TESTS]
BUILT_BY_ALL = [s for s in SOURCES if not s.startswith("tests/")]
IGNORE = shutil.ignore_patterns("build", ".git", "*.o", "*.a", "*.d")


def make(d, *args, check=True):
    r = subprocess.run(["make", *args], cwd=d, env=ENV, capture_output=True, text=True, timeout=180)
    if check:
        assert r.returncode == 0, f"make {' '.join(args)} failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r


def fresh(parent):
    d = parent / "calc"
    shutil.copytree(WS, d, symlinks=True, ignore=IGNORE)
    for gen in ("include/calc/ops.h",):
        if (d / gen).exists():
            (d / gen).unlink()
    for p in PROGS:
        if (d / p).exists():
            (d / p).unlink()
    return d


def snapshot(d):
    out = {}
    for root, dirs, files in os.walk(d):
        for f in files:
            p = os.path.join(root, f)
            out[os.path.relpath(p, d)] = open(p, "rb").read()
        for x in dirs:
            out[os.path.relpath(os.path.join(root, x), d) + "/"] = b""
    return out


def obj(src):
    return "build/obj/" + src[:-2] + ".o"


def product_files(d):
    return [os.path.join(r, f) for r, _, fs in os.walk(d / "build") for f in fs]


def settle(d, t0=1_600_000_000):
    """Sources at t0, every build product and directory at t0+100."""
    for root, dirs, files in os.walk(d):
        rel = os.path.relpath(root, d)
        t = t0 + 100 if rel == "build" or rel.startswith("build" + os.sep) else t0
        for f in files:
            os.utime(os.path.join(root, f), (t, t))
        os.utime(root, (t, t))
    return t0


def rebuilt(d, t0):
    return {s for s in BUILT_BY_ALL if (d / obj(s)).stat().st_mtime > t0 + 150}


def newer(d, rel, t0):
    return (d / rel).stat().st_mtime > t0 + 150


def includers(d):
    """header (relative path) -> set of sources that include it directly or indirectly, per gcc."""
    r = subprocess.run(["gcc", "-MM", "-Iinclude", "-Ibuild/include", *SOURCES], cwd=d, env=ENV,
                       capture_output=True, text=True, check=True)
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
def built(tmp_path_factory):
    d = fresh(tmp_path_factory.mktemp("shared"))
    make(d, "-j8")
    return d


@pytest.fixture
def proj(tmp_path):
    return fresh(tmp_path)


def test_repeated_clean_parallel_builds(proj):
    for _ in range(3):
        make(proj, "-j8")
        for p in PROGS:
            assert (proj / "build" / "bin" / p).is_file()
        assert (proj / "build" / "include" / "calc" / "ops.h").is_file()
        make(proj, "clean")
        assert not (proj / "build").exists()


def test_outputs_only_under_build(proj):
    before = snapshot(proj)
    make(proj, "-j8")
    make(proj, "-j8", "check")
    after = {k: v for k, v in snapshot(proj).items() if not k.startswith("build/") and k != "build/"}
    assert after == before, f"files outside build/ changed: {sorted(set(after) ^ set(before))}"
    for s in SOURCES:
        assert (proj / obj(s)).is_file(), f"{obj(s)} missing"


@pytest.mark.parametrize("target", ["build/bin/calc", "build/bin/calc-ops", "build/lib/libcalc.a",
                                    "build/obj/lib/eval.o", "build/include/calc/ops.h"])
def test_single_target_from_clean_tree(proj, target):
    make(proj, "-j8", target)
    assert (proj / target).is_file()


def test_static_library_holds_every_lib_object(built):
    r = subprocess.run(["ar", "t", "build/lib/libcalc.a"], cwd=built, capture_output=True, text=True, check=True)
    assert sorted(r.stdout.split()) == sorted(f"{m}.o" for m in MODS)


def test_programs_work(built):
    r = subprocess.run(["build/bin/calc", "5"], cwd=built, capture_output=True, text=True, timeout=10)
    assert r.stdout.strip() == "15"
    r = subprocess.run(["build/bin/calc-ops"], cwd=built, capture_output=True, text=True, timeout=10)
    assert r.stdout.split() == ["add", "sub", "mul", "div", "neg"]


def test_second_make_does_nothing(built):
    t0 = settle(built)
    assert make(built, "-q", check=False).returncode == 0, "make -q says something is out of date"
    make(built)
    assert all(os.stat(f).st_mtime == t0 + 100 for f in product_files(built))


def test_source_change_rebuilds_one_object(built):
    t0 = settle(built)
    os.utime(built / "lib" / "fmt.c", (t0 + 300, t0 + 300))
    make(built, "-j8")
    assert rebuilt(built, t0) == {"lib/fmt.c"}
    assert newer(built, "build/lib/libcalc.a", t0)
    assert all(newer(built, f"build/bin/{p}", t0) for p in PROGS)


def test_each_header_rebuilds_exactly_its_dependents(built):
    users = includers(built)
    headers = sorted(h for h in users if h.startswith("include/"))
    assert len(headers) >= 15
    for h in headers:
        t0 = settle(built)
        os.utime(built / h, (t0 + 300, t0 + 300))
        make(built, "-j8")
        assert rebuilt(built, t0) == users[h], h


@pytest.mark.parametrize("source", ["lib/ops.def", "tools/mkops.awk"])
def test_generated_header_follows_its_sources(built, source):
    users = includers(built)["build/include/calc/ops.h"]
    assert len(users) >= 3
    t0 = settle(built)
    os.utime(built / source, (t0 + 300, t0 + 300))
    make(built, "-j8")
    assert newer(built, "build/include/calc/ops.h", t0)
    assert rebuilt(built, t0) == users


def test_generated_header_content_change(proj):
    make(proj, "-j8")
    with open(proj / "lib" / "ops.def", "a") as f:
        f.write("mod % 2\n")
    make(proj, "-j8")
    r = subprocess.run(["build/bin/calc-ops"], cwd=proj, capture_output=True, text=True, timeout=10)
    assert r.stdout.split()[-1] == "mod"


def test_check_runs_every_test(proj):
    r = make(proj, "-j8", "check")
    for t in TESTS:
        assert f"PASS {t}" in r.stdout


def test_check_fails_when_a_test_fails(proj):
    make(proj, "-j8")
    p = proj / "lib" / "sort.c"
    p.write_text(p.read_text().replace("return x +", "return 1000 + x +"))
    r = make(proj, "-j8", "check", check=False)
    assert r.returncode != 0
    assert "FAIL t_sort" in r.stdout + r.stderr


MODES = {"bin": 0o755, "lib": 0o644, "include/calc": 0o644, "share/man/man1": 0o644}


def expected_install():
    hdrs = sorted(os.listdir(os.path.join(WS, "include", "calc")))
    files = {f"bin/{p}": 0o755 for p in PROGS}
    files["lib/libcalc.a"] = 0o644
    for h in sorted(set(hdrs) | {"ops.h"}):
        files[f"include/calc/{h}"] = 0o644
    files["share/man/man1/calc.1"] = 0o644
    return files


def installed(root):
    got = {}
    for r, _, fs in os.walk(root):
        for f in fs:
            p = os.path.join(r, f)
            got[os.path.relpath(p, root)] = os.stat(p).st_mode & 0o7777
    return got


@pytest.mark.parametrize("prefix", [None, "/opt/calc"])
def test_install_layout_under_destdir(proj, tmp_path, prefix):
    dest = tmp_path / "stage"
    args = ["-j8", "install", f"DESTDIR={dest}"] + ([f"PREFIX={prefix}"] if prefix else [])
    make(proj, *args)
    root = dest / (prefix or "/usr/local").lstrip("/")
    assert installed(dest) == {os.path.join(os.path.relpath(root, dest), k): v for k, v in expected_install().items()}
    r = subprocess.run([str(root / "bin" / "calc"), "1"], capture_output=True, text=True, timeout=10)
    assert r.stdout.strip() == "11"


def test_clean_leaves_nothing(proj, tmp_path):
    before = snapshot(proj)
    make(proj, "-j8")
    make(proj, "check")
    make(proj, "install", f"DESTDIR={tmp_path / 'stage'}")
    make(proj, "clean")
    assert snapshot(proj) == before


def test_targets_run_despite_stray_files(proj, tmp_path):
    for stray in ("all", "check", "install", "clean"):
        (proj / stray).write_text("stray\n")
    make(proj, "all")
    assert (proj / "build" / "bin" / "calc").is_file()
    assert "PASS t_buf" in make(proj, "check").stdout
    make(proj, "install", f"DESTDIR={tmp_path / 'stage'}")
    assert (tmp_path / "stage" / "usr" / "local" / "bin" / "calc").is_file()
    make(proj, "clean")
    assert not (proj / "build").exists()
