"""Hidden checks of the statcalc build: each test builds a fresh copy of the workspace
(without build outputs) in /tmp with a clean environment, then inspects what make did."""
import os
import shutil
import statistics
import subprocess
import time

import pytest

WS = "/workspace"
ENV = {"HOME": "/tmp", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
OBJS = ("main", "stats", "format", "parse")


def make(d, *args, check=True):
    r = subprocess.run(["make", *args], cwd=d, env=ENV, capture_output=True, text=True, timeout=120)
    if check:
        assert r.returncode == 0, f"make {' '.join(args)} failed:\n{r.stdout}\n{r.stderr}"
    return r


def fresh_copy(parent):
    d = parent / "statcalc"
    shutil.copytree(WS, d, symlinks=True, ignore=shutil.ignore_patterns("build", "bin", ".git"))
    return d


@pytest.fixture
def proj(tmp_path):
    return fresh_copy(tmp_path)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    # One parallel build from a clean tree, shared by the rebuild tests: each of them starts
    # with settle(), which resets every mtime, so they do not depend on each other's order.
    d = fresh_copy(tmp_path_factory.mktemp("shared"))
    make(d, "-j4")
    return d


def obj(d, name):
    return d / "build" / f"{name}.o"


def settle(d):
    """Back-date a finished build so every later change is unambiguously newer:
    sources and headers at t0, directories at t0+50, objects at t0+100, binary at t0+200."""
    t0 = time.time() - 10000
    for sub in ("src", "include"):
        for f in (d / sub).iterdir():
            os.utime(f, (t0, t0))
    for f in (d / "build").iterdir():
        os.utime(f, (t0 + 100, t0 + 100))
    os.utime(d / "build", (t0 + 50, t0 + 50))
    os.utime(d / "bin", (t0 + 50, t0 + 50))
    os.utime(d / "bin" / "statcalc", (t0 + 200, t0 + 200))
    os.utime(d / "Makefile", (t0, t0))
    return t0


def rebuilt(d, t0):
    return {n for n in OBJS if obj(d, n).stat().st_mtime > t0 + 150}


def touch_later(path, t0):
    os.utime(path, (t0 + 300, t0 + 300))


def report(values):
    return ("count=%d min=%.3f max=%.3f mean=%.3f median=%.3f stddev=%.3f" % (
        len(values), min(values), max(values), statistics.fmean(values), statistics.median(values),
        statistics.pstdev(values)))


def test_parallel_build_from_clean_tree(built):
    assert (built / "bin" / "statcalc").is_file()
    for n in OBJS:
        assert obj(built, n).is_file(), f"build/{n}.o missing"


def test_binary_computes_statistics(built, tmp_path):
    values = [3.5, -2.0, 10.0, 7.25, 0.0, 3.5, 1e3, -0.5]
    data = tmp_path / "values.txt"
    data.write_text("# sample\n" + "\n".join(str(v) for v in values[:4]) + "\n\n   \n" + "\n".join(str(v) for v in values[4:]) + "\n")
    r = subprocess.run([str(built / "bin" / "statcalc"), str(data)], capture_output=True, text=True, timeout=10)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == report(values)
    r = subprocess.run([str(built / "bin" / "statcalc")], input="5\n1\n4\n", capture_output=True, text=True, timeout=10)
    assert r.stdout.strip() == report([5, 1, 4])
    r = subprocess.run([str(built / "bin" / "statcalc")], input="1\nabc\n", capture_output=True, text=True, timeout=10)
    assert r.returncode == 1 and "line 2" in r.stderr


def test_second_make_does_nothing(built):
    t0 = settle(built)
    make(built)
    assert rebuilt(built, t0) == set()
    assert (built / "bin" / "statcalc").stat().st_mtime == t0 + 200


def test_parse_header_change_rebuilds_its_users_only(built):
    t0 = settle(built)
    touch_later(built / "include" / "parse.h", t0)
    make(built)
    assert rebuilt(built, t0) == {"main", "parse"}
    assert (built / "bin" / "statcalc").stat().st_mtime > t0 + 200


def test_stats_header_change_rebuilds_its_users_only(built):
    t0 = settle(built)
    touch_later(built / "include" / "stats.h", t0)
    make(built, "-j4")
    assert rebuilt(built, t0) == {"main", "stats", "format"}


def test_source_change_rebuilds_one_object(built):
    t0 = settle(built)
    touch_later(built / "src" / "format.c", t0)
    make(built)
    assert rebuilt(built, t0) == {"format"}
    assert (built / "bin" / "statcalc").stat().st_mtime > t0 + 200


def test_clean_and_all_despite_stray_files(proj):
    built = proj
    make(built, "-j4")
    for stray in ("clean", "all", "test"):
        (built / stray).write_text("stray file dropped by the packaging tool\n")
    make(built, "clean")
    assert not (built / "build").exists() and not (built / "bin").exists()
    make(built)
    assert (built / "bin" / "statcalc").is_file()
    make(built, "clean")
    make(built, "all")
    assert (built / "bin" / "statcalc").is_file()
    r = make(built, "test")
    assert "statcalc: ok" in r.stdout


def test_make_test_from_clean_tree(proj):
    r = make(proj, "test")
    assert "statcalc: ok" in r.stdout
