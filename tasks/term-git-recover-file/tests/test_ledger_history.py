"""Hidden checks for the restored tax table. They run as the verifier user, which cannot
read the workspace: git and the ledger tool run in the agent's clone only as the sandbox
user, through the broker (nabverify), and files are read through it. Git runs read-only
with a fixed, minimal config: nothing the workspace or an agent-written config says (hooks,
fsmonitor, replace refs, grafts, a commit-graph file) counts."""
import nabverify as nv
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
       "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_NO_REPLACE_OBJECTS": "1", "GIT_GRAFT_FILE": "/dev/null",
       "LANG": "C.UTF-8",
       # Nothing else of the broker's environment.
       "TMPDIR": None, "PYTHONDONTWRITEBYTECODE": None, "PYTHONPYCACHEPREFIX": None}


def text(data):
    """Bytes as the text a file or pipe opened in text mode reads (UTF-8, universal newlines)."""
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


class Git:
    def __init__(self, result):
        self.returncode = result.exit
        self.stdout = text(result.stdout_bytes)
        self.stderr = result.stderr


def git(*args, check=True):
    argv = ["git", "-c", "safe.directory=*", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null",
            "-c", "core.commitGraph=false", "-C", REPO, *args]
    r = nv.run(argv, env=ENV, timeout=60)
    assert not r.timed_out, r.describe()
    if check:
        assert r.exit == 0, f"{args}: {r.stderr}"
    return Git(r)


def test_clone_exists():
    entries = nv.listdir(REPO)
    assert entries is not None and (".git", "dir") in entries, "ledger/ is not a git clone"
    assert git("rev-parse", "--abbrev-ref", "HEAD").stdout.strip() == "main"


def test_history_not_rewritten():
    assert git("merge-base", "--is-ancestor", OLD_TIP, "main", check=False).returncode == 0, \
        "the commits on main before the fix are no longer in main's history"
    assert git("rev-parse", "main").stdout.strip() != OLD_TIP, "nothing was committed on main"


def test_committed_table_is_the_last_version():
    assert git("cat-file", "blob", "main:config/tax_rates.csv").stdout == EXPECTED


def test_working_tree_table_matches():
    data = nv.read(f"{REPO}/config/tax_rates.csv")
    assert data is not None, "config/tax_rates.csv is missing from the working tree (or not a regular file)"
    assert text(data) == EXPECTED


def test_nothing_else_changed():
    changed = git("diff-tree", "-r", "--no-renames", "--name-status", OLD_TIP, "main").stdout.split("\n")
    assert [c for c in changed if c] == ["A\tconfig/tax_rates.csv"]


@pytest.mark.parametrize("rev", [DELETION + "^"])
def test_table_matches_pre_deletion_blob(rev):
    before = git("rev-parse", f"{rev}:config/tax_rates.csv").stdout.strip()
    now = git("rev-parse", "main:config/tax_rates.csv").stdout.strip()
    assert before == now


def test_report_runs():
    r = nv.run(["bash", "bin/ledger", "report", "data/2024-q1.ledger"], cwd=REPO, env=ENV, timeout=20)
    assert r.exit == 0 and not r.timed_out, r.describe()
    assert text(r.stdout_bytes) == REPORT
