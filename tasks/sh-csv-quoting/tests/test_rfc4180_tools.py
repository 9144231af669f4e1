import csv
import io
import os
import random
import subprocess

import pytest

BIN = "/workspace/bin"


def run(tool, *args, stdin=None, cwd=None):
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "LC_ALL": "C.UTF-8"}
    return subprocess.run(["bash", f"{BIN}/{tool}", *args], input=stdin, capture_output=True,
                          text=True, env=env, timeout=60, cwd=cwd)


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
