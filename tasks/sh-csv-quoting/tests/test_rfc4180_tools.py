import csv
import io
import os
import random
import shutil
import subprocess
import tempfile

import pytest

BIN = "/workspace/bin"
HERE = os.path.dirname(os.path.abspath(__file__))

# The tools are bash: they may run bash and the standard text tools, nothing else. They run
# with a PATH of one folder that links only these, and under an exec guard (exec_guard.c,
# LD_PRELOAD) that refuses any other program however it is named (an absolute path, env,
# awk's system(), a script's "#!" line). A refusal fails the test that caused it.
ALLOWED = """
bash sh dash awk gawk mawk sed grep egrep fgrep
cat cut tr sort uniq head tail wc paste join comm tee printf echo dirname basename
readlink realpath mktemp rm mv cp mkdir rmdir ls ln chmod touch date seq expr true false
test [ od fold tac rev nl fmt pr split csplit expand unexpand sleep env xargs find diff
cmp iconv stat id uname tsort shuf md5sum sha256sum cksum base64 numfmt timeout
""".split()
_SANDBOX = {}


def sandbox():
    if not _SANDBOX:
        root = tempfile.mkdtemp(prefix="csv-tools-")
        farm = os.path.join(root, "bin")
        os.mkdir(farm)
        real = []
        for name in ALLOWED:
            path = shutil.which(name, path="/usr/bin:/bin")
            if path:
                os.symlink(path, os.path.join(farm, name))
                real.append(os.path.realpath(path))
        for name in ("python3", "python", "perl", "ruby", "node", "php", "tclsh", "lua"):
            assert shutil.which(name, path=farm) is None, name
        guard = os.path.join(root, "exec_guard.so")
        subprocess.run(["gcc", "-shared", "-fPIC", "-O1", "-o", guard, os.path.join(HERE, "exec_guard.c")],
                       check=True, capture_output=True, timeout=60)
        _SANDBOX.update(farm=farm, guard=guard, allow=":".join(sorted(set(real))),
                        log=os.path.join(root, "refused.log"))
    return _SANDBOX


def run(tool, *args, stdin=None, cwd=None):
    box = sandbox()
    env = {"PATH": box["farm"], "HOME": "/tmp", "LC_ALL": "C.UTF-8", "LD_PRELOAD": box["guard"],
           "NAB_GUARD_ALLOW": box["allow"], "NAB_GUARD_LOG": box["log"]}
    if os.path.exists(box["log"]):
        os.unlink(box["log"])
    result = subprocess.run([os.path.join(box["farm"], "bash"), f"{BIN}/{tool}", *args], input=stdin,
                            capture_output=True, text=True, env=env, timeout=60, cwd=cwd)
    refused = open(box["log"], encoding="utf-8", errors="replace").read() if os.path.exists(box["log"]) else ""
    assert not refused, f"{tool} ran programs other than bash and the standard text tools:\n{refused}"
    return result


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
def exports(tmp_path):
    d = tmp_path / "crm exports"
    d.mkdir()
    return d


def write(path, rows, lineterminator="\n"):
    path.write_text(to_csv(rows, lineterminator), encoding="utf-8", newline="")
    return str(path)


def test_cut_quoted_fields(exports):
    f = write(exports / "contacts export.csv", CONTACTS)
    r = run("csv-cut", "-f", "name,city,note", f)
    assert r.returncode == 0, r.stderr
    assert r.stdout == to_csv(select(CONTACTS, ["name", "city", "note"]))


def test_cut_reorders_and_keeps_empty_and_trailing_fields(exports):
    rows = [["a", "b", "c"], ["1", "", ""], ["", "2", ""], ["x,y", "", "z"]]
    f = write(exports / "sparse.csv", rows)
    r = run("csv-cut", "-f", "c,b,a", f)
    assert r.returncode == 0, r.stderr
    assert r.stdout == to_csv(select(rows, ["c", "b", "a"]))


def test_crlf_input(exports):
    rows = [r for r in CONTACTS if "\n" not in "".join(r)]
    f = write(exports / "windows export.csv", rows, lineterminator="\r\n")
    r = run("csv-cut", "-f", "email,name", f)
    assert r.returncode == 0, r.stderr
    assert r.stdout == to_csv(select(rows, ["email", "name"]))


def test_several_files_with_spaces_header_once(exports):
    a = write(exports / "part one.csv", CONTACTS[:3])
    b = write(exports / "part two.csv", [CONTACTS[0]] + CONTACTS[3:])
    r = run("csv-cut", "-f", "id,name", a, b)
    assert r.returncode == 0, r.stderr
    assert r.stdout == to_csv(select(CONTACTS, ["id", "name"]))


def test_relative_names_with_spaces(exports):
    write(exports / "contacts export.csv", CONTACTS)
    r = run("csv-count", "contacts export.csv", cwd=str(exports))
    assert r.returncode == 0, r.stderr
    assert r.stdout == "5\n"


def test_stdin(exports):
    r = run("csv-cut", "-f", "note,id", stdin=to_csv(CONTACTS))
    assert r.returncode == 0, r.stderr
    assert r.stdout == to_csv(select(CONTACTS, ["note", "id"]))


def test_grep_matches_field_values(exports):
    f = write(exports / "contacts export.csv", CONTACTS)
    r = run("csv-grep", "name", "^Smith, John$", f)
    assert r.returncode == 0, r.stderr
    assert r.stdout == to_csv([CONTACTS[0], CONTACTS[1]])
    r = run("csv-grep", "note", "JJ|not before", f)
    assert r.stdout == to_csv([CONTACTS[0], CONTACTS[2], CONTACTS[3]])
    r = run("csv-grep", "city", "^Berlin$", f)
    assert r.stdout == to_csv([CONTACTS[0], CONTACTS[1], CONTACTS[3]])


def test_count_records_and_values(exports):
    f = write(exports / "contacts export.csv", CONTACTS)
    g = write(exports / "more contacts.csv", [CONTACTS[0], ["6", "Kim", "kim@example.org", "Porto Alegre, RS", "a\nb\nc"]])
    r = run("csv-count", f, g)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "6\n"
    r = run("csv-count", "-c", "city", f, g)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["2\tBerlin", "2\tPorto Alegre, RS", "1\tDublin", "1\tSingapore"]


def test_missing_column_is_an_error(exports):
    f = write(exports / "contacts export.csv", CONTACTS)
    r = run("csv-cut", "-f", "name,phone", f)
    assert r.returncode != 0
    assert "phone" in r.stderr


def test_random_tables_round_trip(exports):
    rng = random.Random(4180)
    alphabet = ["a", "b", "Z", "7", " ", ",", "\"", "\n", "\u00e9", "-", "''", ";"]
    cols = ["k", "v1", "v2", "v3"]
    rows = [cols]
    for n in range(40):
        rows.append([str(n)] + ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8))) for _ in range(3)])
    f = write(exports / "random data.csv", rows)
    order = ["v3", "k", "v1", "v2"]
    r = run("csv-cut", "-f", ",".join(order), f)
    assert r.returncode == 0, r.stderr
    assert r.stdout == to_csv(select(rows, order))


def test_guard_refuses_other_interpreters(exports):
    # The sandbox itself: a script that reaches for Python by absolute path is refused.
    f = exports / "probe"
    f.write_text("/usr/bin/python3 -c 'print(1)'\n", encoding="utf-8")
    box = sandbox()
    env = {"PATH": box["farm"], "LD_PRELOAD": box["guard"], "NAB_GUARD_ALLOW": box["allow"],
           "NAB_GUARD_LOG": box["log"]}
    r = subprocess.run([os.path.join(box["farm"], "bash"), str(f)], capture_output=True, text=True,
                       env=env, timeout=60)
    assert r.returncode != 0 and r.stdout == ""
    assert "python3" in open(box["log"], encoding="utf-8").read()
    os.unlink(box["log"])


def test_every_tool_runs_with_bash_and_text_tools_only(exports):
    f = write(exports / "contacts export.csv", CONTACTS)
    want = {
        ("csv-cut", "-f", "city,name"): to_csv(select(CONTACTS, ["city", "name"])),
        ("csv-grep", "city", "^Berlin$"): to_csv([CONTACTS[0], CONTACTS[1], CONTACTS[3]]),
        ("csv-count", "-c", "city"): "2\tBerlin\n1\tDublin\n1\tPorto Alegre, RS\n1\tSingapore\n",
        ("csv-count",): "5\n",
    }
    for (tool, *args), out in want.items():
        r = run(tool, *args, f)
        assert r.returncode == 0, (tool, r.stderr)
        assert r.stdout == out, tool
