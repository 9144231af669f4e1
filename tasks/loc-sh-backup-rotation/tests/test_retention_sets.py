"""Hidden tests of retention across sibling backup sets. They run as the verifier user; the
backup tools run only as the sandbox user, through the broker (nabverify), on backup
folders written for them under /tmp. What is left in a folder is listed through the broker
and compared here."""
import io
import re
import tarfile

import pytest

import nabverify as nv

WS = "/workspace"
ROOT = "/tmp/backup-tests"


def stamps(n, hh="03", start_day=1):
    return [f"202406{d:02d}-{hh}1500" for d in range(start_day, start_day + n)]


def make(dirpath, set_name, stamp_list):
    names = []
    for st in stamp_list:
        name = f"{set_name}-{st}.tar.gz"
        nv.write(f"{dirpath}/{name}", b"x")
        names.append(name)
    return names


@pytest.fixture
def tmp(request):
    """A fresh folder of the sandbox user's for this test."""
    base = "%s/%s" % (ROOT, re.sub(r"[^A-Za-z0-9_]", "_", request.node.name))
    assert nv.run(["mkdir", "-p", base], cwd="/tmp").ok
    return base


@pytest.fixture
def store(tmp):
    d = f"{tmp}/nightly"
    assert nv.run(["mkdir", "-p", d], cwd="/tmp").ok
    conf = f"{tmp}/backup.conf"
    nv.write(conf, f"BACKUP_DIR={d}\nKEEP=7\n")
    return d, conf


def tool(name, conf, *args, env_extra=None):
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "LC_ALL": "C.UTF-8",
           # Nothing else of the broker's environment.
           "TMPDIR": None, "LANG": None, "PYTHONDONTWRITEBYTECODE": None, "PYTHONPYCACHEPREFIX": None}
    env.update(env_extra or {})
    r = nv.run(["bash", f"{WS}/bin/{name}", "-c", conf, *args], env=env, timeout=30)
    assert not r.timed_out, r.describe()
    return r


def present(d):
    entries = nv.listdir(d)
    assert entries is not None, f"{d} is gone"
    return sorted(name for name, _ in entries if not name.startswith("."))


def test_prefix_sibling_set_is_left_alone(store):
    d, conf = store
    db = make(d, "db", stamps(10))
    replica = make(d, "db-replica", stamps(10, "04"))
    r = tool("backup-prune", conf, "db")
    assert r.exit == 0, r.stderr
    assert present(d) == sorted(db[3:] + replica)


def test_sibling_set_pruned_on_its_own(store):
    d, conf = store
    db = make(d, "db", stamps(9))
    replica = make(d, "db-replica", stamps(12, "04"))
    r = tool("backup-prune", conf, "db-replica")
    assert r.exit == 0, r.stderr
    assert present(d) == sorted(db + replica[5:])


def test_numbered_sibling_sets(store):
    d, conf = store
    pg = make(d, "pg", stamps(8))
    pg2 = make(d, "pg-2", stamps(3, "01"))
    pg2020 = make(d, "pg-2020", stamps(2, "02"))
    r = tool("backup-prune", conf, "pg")
    assert r.exit == 0, r.stderr
    assert present(d) == sorted(pg[1:] + pg2 + pg2020)
    r = tool("backup-prune", conf, "pg-2", "pg-2020")
    assert r.exit == 0, r.stderr
    assert present(d) == sorted(pg[1:] + pg2 + pg2020)


def test_other_sets_and_stray_files(store):
    d, conf = store
    web = make(d, "web", stamps(9))
    static = make(d, "web-static-assets", stamps(4))
    # Not archives of any set (the name is not <set>-<YYYYmmdd>-<HHMMSS>.tar.gz), though
    # "web" followed by two dash-separated parts: one sorts before web's archives, one after.
    strays = ["web-notes.tar.gz", "web-latest.tar.gz", "web-20240601-031500.tar.gz.sha256",
              "web-2024-06.tar.gz", "web-old-copy.tar.gz"]
    for s in strays:
        nv.write(f"{d}/{s}", "keep me")
    r = tool("backup-prune", conf, "web")
    assert r.exit == 0, r.stderr
    assert present(d) == sorted(web[2:] + static + strays)


def test_dry_run_lists_only_the_set(store):
    d, conf = store
    db = make(d, "db", stamps(9))
    make(d, "db-replica", stamps(9, "04"))
    before = present(d)
    r = tool("backup-prune", conf, "-n", "db")
    assert r.exit == 0, r.stderr
    assert present(d) == before
    assert r.stdout.split("\n")[:-1] == [f"would delete {n}" for n in db[:2]]


def test_list_shows_only_the_set(store):
    d, conf = store
    db = make(d, "db", stamps(3))
    make(d, "db-replica", stamps(3, "04"))
    make(d, "db-2", stamps(1, "05"))
    r = tool("backup-list", conf, "db")
    assert r.exit == 0, r.stderr
    assert [ln.split()[-1] for ln in r.stdout.splitlines()] == db


def test_full_backup_run_rotates_its_own_set(store, tmp):
    d, conf = store
    src = f"{tmp}/src"
    nv.write(f"{src}/dump.sql", "select 1;\n")
    db = make(d, "db", stamps(7))
    replica = make(d, "db-replica", stamps(7, "04"))
    r = tool("backup", conf, "db", src, env_extra={"BACKUP_STAMP": "20240701-031500"})
    assert r.exit == 0, r.stderr
    new = "db-20240701-031500.tar.gz"
    assert present(d) == sorted(db[1:] + [new] + replica)
    data = nv.read(f"{d}/{new}")
    assert data is not None, f"{new} is not a regular file"
    with tarfile.open(fileobj=io.BytesIO(data)) as tf:
        assert "./dump.sql" in tf.getnames()


def test_under_the_limit_nothing_goes(store):
    d, conf = store
    db = make(d, "db", stamps(7))
    replica = make(d, "db-replica", stamps(7, "04"))
    r = tool("backup-prune", conf, "db", "db-replica")
    assert r.exit == 0, r.stderr
    assert present(d) == sorted(db + replica)
