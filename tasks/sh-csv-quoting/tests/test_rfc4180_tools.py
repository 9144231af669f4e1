"""Hidden tests of the csv tools. They run as the verifier user; the tools run only as the
sandbox user, through the broker (nabverify), on inputs written for them under /tmp, and
every expected value (Python's csv module) stays in this process."""
import csv
import io
import itertools
import os
import random
import re
import shutil
import tempfile

import pytest

import nabverify as nv

BIN = "/workspace/bin"
GUARD_SOURCE = "/nab/probes/exec_guard.c"
# Inputs for the tools, written as the sandbox user (they are inputs, not answers).
INPUTS = "/tmp/csv-tests"
# The exec guard's refusal logs: the guard runs inside the tools' processes (uid 1000), so
# it writes them as that user.
LOGS = "/tmp/csv-guard-logs"

# The tools are bash: they may run bash and the standard text tools, nothing else. They run
# with a PATH of one folder that links only these, and under an exec guard (exec_guard.c,
# LD_PRELOAD, and a Landlock seal it sets on the run) that refuses any other program however
# it is named (an absolute path, env, awk's system(), a script's "#!" line) and any code of
# the tools' own loaded into a process (bash's enable -f, gawk's @load, the loader's
# variables). A refusal fails the test that caused it.
ALLOWED = """
bash sh dash awk gawk mawk sed grep egrep fgrep
cat cut tr sort uniq head tail wc paste join comm tee printf echo dirname basename
readlink realpath mktemp rm mv cp mkdir rmdir ls ln chmod touch date seq expr true false
test [ od fold tac rev nl fmt pr split csplit expand unexpand sleep env xargs find diff
cmp iconv stat id uname tsort shuf md5sum sha256sum cksum base64 numfmt timeout
""".split()
_SANDBOX = {}
_RUNS = itertools.count()


def sandbox():
    """The PATH folder and the guard. The guard is compiled as the sandbox user (before any
    workspace code runs), then copied with the links into a folder of this user's under
    /tmp (0755): the tools can use both and change neither, so no run can swap the guard
    or a link for the runs after it."""
    if not _SANDBOX:
        built = "/tmp/csv-exec-guard-%d.so" % os.getpid()
        r = nv.run(["gcc", "-shared", "-fPIC", "-O1", "-o", built, GUARD_SOURCE], cwd="/tmp", timeout=120)
        assert r.ok, "the exec guard did not build: " + r.describe()
        so = nv.read(built)
        assert so and so[:4] == b"\x7fELF", "the exec guard did not build"
        root = tempfile.mkdtemp(prefix="csv-tools-", dir="/tmp")
        os.chmod(root, 0o755)
        farm = os.path.join(root, "bin")
        os.mkdir(farm, 0o755)
        real = []
        for name in ALLOWED:
            path = shutil.which(name, path="/usr/bin:/bin")
            if path:
                os.symlink(path, os.path.join(farm, name))
                real.append(os.path.realpath(path))
        for name in ("python3", "python", "perl", "ruby", "node", "php", "tclsh", "lua"):
            assert shutil.which(name, path=farm) is None, name
        guard = os.path.join(root, "exec_guard.so")
        with open(guard, "wb") as f:
            f.write(so)
        os.chmod(guard, 0o644)
        assert nv.run(["mkdir", "-p", LOGS], cwd="/tmp").ok
        _SANDBOX.update(farm=farm, guard=guard, allow=":".join(sorted(set(real))))
    return _SANDBOX


class Ran:
    def __init__(self, result, refused):
        self.result = result
        self.returncode = result.exit
        self.stdout = result.stdout_bytes.decode("utf-8", "replace")
        self.stdout_bytes = result.stdout_bytes
        self.stderr = result.stderr
        self.refused = refused


def guarded(argv, stdin=b"", cwd="/workspace"):
    """Runs argv (its program from the PATH folder) as the sandbox user under the guard.
    Returns what it did and what the guard logged."""
    box = sandbox()
    log = "%s/%d.log" % (LOGS, next(_RUNS))
    env = {"PATH": box["farm"], "HOME": "/tmp", "LC_ALL": "C.UTF-8", "LD_PRELOAD": box["guard"],
           "NAB_GUARD_ALLOW": box["allow"], "NAB_GUARD_LOG": log,
           # Nothing else of the broker's environment.
           "TMPDIR": None, "LANG": None, "PYTHONDONTWRITEBYTECODE": None, "PYTHONPYCACHEPREFIX": None}
    result = nv.run([os.path.join(box["farm"], argv[0]), *argv[1:]], stdin=stdin, cwd=cwd, env=env, timeout=60)
    assert not result.timed_out, result.describe()
    refused = nv.read(log, follow=False) or b""
    return Ran(result, refused.decode("utf-8", "replace"))


def run(tool, *args, stdin=None, cwd="/workspace"):
    ran = guarded(["bash", f"{BIN}/{tool}", *args], stdin=(stdin or "").encode("utf-8"), cwd=cwd)
    assert not ran.refused, f"{tool} ran programs other than bash and the standard text tools:\n{ran.refused}"
    assert "nab exec guard: refused" not in ran.stderr, \
        f"{tool} ran programs other than bash and the standard text tools:\n{ran.stderr[-2000:]}"
    return ran


def to_csv(rows, lineterminator="\n"):
    buf = io.StringIO()
    csv.writer(buf, lineterminator=lineterminator, quoting=csv.QUOTE_MINIMAL).writerows(rows)
    return buf.getvalue()


def select(rows, cols):
    header = rows[0]
    idx = [header.index(c) for c in cols]
    return [cols] + [[r[i] for i in idx] for r in rows[1:]]


CONTACTS = [
    ["id", "name", "email", "city", "note"],
    ["1", "Smith, John", "john@example.org", "Berlin", ""],
    ["2", "Jane \"JJ\" Doe", "jane@example.org", "Porto Alegre, RS", "prefers \"JJ\""],
    ["3", "M\u00fcller, Eva", "eva@example.org", "Berlin", "call after 5pm\nnot before"],
    ["4", " Lee Wong ", "lee@example.org", "Singapore", "VIP, since 2019"],
    ["5", "O'Brien", "", "Dublin", "\"quoted\" at start"],
]


@pytest.fixture
def exports(request):
    """A fresh folder with a space in its name, for this test's input files."""
    return "%s/%s/crm exports" % (INPUTS, re.sub(r"[^A-Za-z0-9_]", "_", request.node.name))


def write(path, rows, lineterminator="\n"):
    nv.write(path, to_csv(rows, lineterminator).encode("utf-8"))
    return path


def test_cut_quoted_fields(exports):
    f = write(f"{exports}/contacts export.csv", CONTACTS)
    r = run("csv-cut", "-f", "name,city,note", f)
    assert r.returncode == 0, r.stderr
    assert r.stdout_bytes == to_csv(select(CONTACTS, ["name", "city", "note"])).encode()


def test_cut_reorders_and_keeps_empty_and_trailing_fields(exports):
    rows = [["a", "b", "c"], ["1", "", ""], ["", "2", ""], ["x,y", "", "z"]]
    f = write(f"{exports}/sparse.csv", rows)
    r = run("csv-cut", "-f", "c,b,a", f)
    assert r.returncode == 0, r.stderr
    assert r.stdout_bytes == to_csv(select(rows, ["c", "b", "a"])).encode()


def test_crlf_input(exports):
    rows = [r for r in CONTACTS if "\n" not in "".join(r)]
    f = write(f"{exports}/windows export.csv", rows, lineterminator="\r\n")
    r = run("csv-cut", "-f", "email,name", f)
    assert r.returncode == 0, r.stderr
    assert r.stdout_bytes == to_csv(select(rows, ["email", "name"])).encode()


def test_several_files_with_spaces_header_once(exports):
    a = write(f"{exports}/part one.csv", CONTACTS[:3])
    b = write(f"{exports}/part two.csv", [CONTACTS[0]] + CONTACTS[3:])
    r = run("csv-cut", "-f", "id,name", a, b)
    assert r.returncode == 0, r.stderr
    assert r.stdout_bytes == to_csv(select(CONTACTS, ["id", "name"])).encode()


def test_relative_names_with_spaces(exports):
    write(f"{exports}/contacts export.csv", CONTACTS)
    r = run("csv-count", "contacts export.csv", cwd=exports)
    assert r.returncode == 0, r.stderr
    assert r.stdout_bytes == b"5\n"


def test_stdin(exports):
    r = run("csv-cut", "-f", "note,id", stdin=to_csv(CONTACTS))
    assert r.returncode == 0, r.stderr
    assert r.stdout_bytes == to_csv(select(CONTACTS, ["note", "id"])).encode()


def test_grep_matches_field_values(exports):
    f = write(f"{exports}/contacts export.csv", CONTACTS)
    r = run("csv-grep", "name", "^Smith, John$", f)
    assert r.returncode == 0, r.stderr
    assert r.stdout_bytes == to_csv([CONTACTS[0], CONTACTS[1]]).encode()
    r = run("csv-grep", "note", "JJ|not before", f)
    assert r.stdout_bytes == to_csv([CONTACTS[0], CONTACTS[2], CONTACTS[3]]).encode()
    r = run("csv-grep", "city", "^Berlin$", f)
    assert r.stdout_bytes == to_csv([CONTACTS[0], CONTACTS[1], CONTACTS[3]]).encode()


def test_count_records_and_values(exports):
    f = write(f"{exports}/contacts export.csv", CONTACTS)
    g = write(f"{exports}/more contacts.csv",
              [CONTACTS[0], ["6", "Kim", "kim@example.org", "Porto Alegre, RS", "a\nb\nc"]])
    r = run("csv-count", f, g)
    assert r.returncode == 0, r.stderr
    assert r.stdout_bytes == b"6\n"
    r = run("csv-count", "-c", "city", f, g)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["2\tBerlin", "2\tPorto Alegre, RS", "1\tDublin", "1\tSingapore"]


def test_missing_column_is_an_error(exports):
    f = write(f"{exports}/contacts export.csv", CONTACTS)
    r = run("csv-cut", "-f", "name,phone", f)
    assert r.returncode != 0, r.result.describe()
    assert "phone" in r.stderr


def test_random_tables_round_trip(exports):
    rng = random.Random(4180)
    alphabet = ["a", "b", "Z", "7", " ", ",", "\"", "\n", "\u00e9", "-", "''", ";"]
    cols = ["k", "v1", "v2", "v3"]
    rows = [cols]
    for n in range(40):
        rows.append([str(n)] + ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8))) for _ in range(3)])
    f = write(f"{exports}/random data.csv", rows)
    order = ["v3", "k", "v1", "v2"]
    r = run("csv-cut", "-f", ",".join(order), f)
    assert r.returncode == 0, r.stderr
    assert r.stdout_bytes == to_csv(select(rows, order)).encode()


def test_guard_refuses_other_interpreters(exports):
    # The sandbox itself: a script that reaches for Python by absolute path is refused.
    f = f"{exports}/probe"
    nv.write(f, "/usr/bin/python3 -c 'print(1)'\n")
    r = guarded(["bash", f])
    assert r.returncode != 0 and r.stdout_bytes == b""
    assert "python3" in r.refused


def test_guard_refuses_unreadable_and_unresolvable_programs(exports):
    # The sandbox itself: a copy of Python its owner may only execute (the kernel runs an
    # ELF file unread), and one opened, deleted and run as /proc/self/fd/3, are refused.
    f = f"{exports}/probe"
    nv.write(f, "\n".join([
        'p=$(mktemp /tmp/.guard-probe.XXXXXX); cp /usr/bin/python3 "$p"; chmod 0111 "$p"',
        '"$p" -c "print(\'ran unread\')"',
        'q=$(mktemp /tmp/.guard-probe.XXXXXX); cp /usr/bin/python3 "$q"; exec 3<"$q"; rm -f "$q"',
        '/proc/self/fd/3 -c "print(\'ran unlinked\')"',
        "",
    ]))
    r = guarded(["bash", f])
    assert "ran" not in r.stdout, r.stdout
    refused = r.refused.splitlines()
    assert any(line.startswith("refused /tmp/.guard-probe.") for line in refused), r.refused
    assert any(line.startswith("refused /proc/self/fd/3") for line in refused), r.refused


FOREIGN_CODE = r"""
#include <unistd.h>
__attribute__((constructor)) static void ran(void) { write(1, "ran foreign code\n", 17); }
"""


def test_guard_refuses_foreign_code(exports):
    # The sandbox itself: no code of the tools' own is loaded into a process: not by bash's
    # `enable -f` (by path, through /proc/self/fd, through BASH_LOADABLES_PATH), gawk's
    # @load, or the loader's variables (LD_AUDIT, LD_LIBRARY_PATH, GCONV_PATH), which the
    # guard drops; and no process may write into its memory through /proc/PID/mem.
    src, so = f"{exports}/foreign.c", f"{exports}/foreign.so"
    nv.write(src, FOREIGN_CODE.encode())
    built = nv.run(["gcc", "-shared", "-fPIC", "-o", so, src], cwd="/tmp", timeout=60)
    assert built.ok, built.describe()
    f = f"{exports}/probe"
    nv.write(f, "\n".join([
        'so="$1"',
        'enable -f "$so" foreign',
        'exec 3<"$so"; enable -f /proc/self/fd/3 foreign',
        'BASH_LOADABLES_PATH=$(dirname "$so") enable -f foreign.so foreign',
        'gawk "@load \\"${so%.so}\\"; BEGIN { }"',
        'LD_AUDIT="$so" LD_LIBRARY_PATH=$(dirname "$so") GCONV_PATH=$(dirname "$so") env | grep -E "^(LD_AUDIT|LD_LIBRARY_PATH|GCONV_PATH)="',
        '( exec 4>/proc/$$/mem ) 2>/dev/null && echo "opened memory"',
        'echo done',
        "",
    ]))
    r = guarded(["bash", f, so])
    assert r.stdout == "done\n", r.stdout
    refused = r.refused.splitlines()
    assert refused.count(f"refused {so}") >= 3, r.refused
    assert "refused /proc/self/fd/3" in refused, r.refused


def test_every_tool_runs_with_bash_and_text_tools_only(exports):
    f = write(f"{exports}/contacts export.csv", CONTACTS)
    want = {
        ("csv-cut", "-f", "city,name"): to_csv(select(CONTACTS, ["city", "name"])),
        ("csv-grep", "city", "^Berlin$"): to_csv([CONTACTS[0], CONTACTS[1], CONTACTS[3]]),
        ("csv-count", "-c", "city"): "2\tBerlin\n1\tDublin\n1\tPorto Alegre, RS\n1\tSingapore\n",
        ("csv-count",): "5\n",
    }
    for (tool, *args), out in want.items():
        r = run(tool, *args, f)
        assert r.returncode == 0, (tool, r.stderr)
        assert r.stdout_bytes == out.encode(), tool
