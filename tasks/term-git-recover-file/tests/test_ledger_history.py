"""Hidden checks for the restored tax table. Git runs read-only with a fixed, minimal config:
nothing the workspace or an agent-written config says (hooks, fsmonitor, replace refs) counts."""
import os
import subprocess

import pytest

REPO = "/workspace/ledger"
OLD_TIP = "fba6c1e645c44285d4694635117ea091566d548d"  # main's tip in the bundle
DELETION = "87d481be58fdd889663ce4dd8230d97bbb6794f5"  # "Clean up stale files"
EXPECTED = (
    "category,rate_percent\nbooks,7\nchildren,7\nelectronics,19\nfood,7\nservices,19\n"
    "# reduced rate for books/food/children applies since 2024-01-01\n"
)
REPORT = """\
books        net    44.49  tax    3.11
children     net    25.99  tax    1.82
electronics  net   168.99  tax   32.11
food         net    24.80  tax    1.74
services     net    50.00  tax    9.50
TOTAL        net   314.27  tax   48.28
"""
ENV = {"HOME": "/tmp", "PATH": "/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM": "1",
       "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_NO_REPLACE_OBJECTS": "1", "LANG": "C.UTF-8"}


def git(*args, check=True):
    argv = ["git", "-c", "safe.directory=*", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null",
            "-C", REPO, *args]
    r = subprocess.run(argv, capture_output=True, text=True, env=ENV)
    if check:
        assert r.returncode == 0, f"{args}: {r.stderr}"
    return r


def test_clone_exists():
    assert os.path.isdir(os.path.join(REPO, ".git")), "ledger/ is not a git clone"
    assert git("rev-parse", "--abbrev-ref", "HEAD").stdout.strip() == "main"


def test_history_not_rewritten():
    assert git("merge-base", "--is-ancestor", OLD_TIP, "main", check=False).returncode == 0, \
        "the commits on main before the fix are no longer in main's history"
    assert git("rev-parse", "main").stdout.strip() != OLD_TIP, "nothing was committed on main"


def test_committed_table_is_the_last_version():
    assert git("show", "main:config/tax_rates.csv").stdout == EXPECTED


def test_working_tree_table_matches():
    with open(os.path.join(REPO, "config/tax_rates.csv"), encoding="utf-8") as f:
        assert f.read() == EXPECTED


def test_nothing_else_changed():
    changed = git("diff", "--name-status", OLD_TIP, "main").stdout.split("\n")
    assert [c for c in changed if c] == ["A\tconfig/tax_rates.csv"]


@pytest.mark.parametrize("rev", [DELETION + "^"])
def test_table_matches_pre_deletion_blob(rev):
    before = git("rev-parse", f"{rev}:config/tax_rates.csv").stdout.strip()
    now = git("rev-parse", "main:config/tax_rates.csv").stdout.strip()
    assert before == now


def test_report_runs():
    r = subprocess.run(["bash", "bin/ledger", "report", "data/2024-q1.ledger"], cwd=REPO,
                       capture_output=True, text=True, env=ENV, timeout=20)
    assert r.returncode == 0, r.stderr
    assert r.stdout == REPORT
