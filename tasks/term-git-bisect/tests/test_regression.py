"""Hidden checks of term-git-bisect: the fix committed on main, the history kept, the bundle
left alone, and the answer file's form. Whether the answer names the right commit is checked
on the host (expected/REGRESSION_COMMIT, which never enters a container).

They run as the verifier user, which cannot read the workspace: git and colsum run as the
sandbox user through the broker, on main's tree as its raw blobs have it, the history is
walked here from the raw commit objects, and every expected total is computed here by a
reference built on Python's csv module."""
import csv
import hashlib
import re

import pytest

import nabverify as nv

REPO = "/workspace/textkit"
TREE = "/tmp/nab-verify-main"
ANSWER = "/workspace/REGRESSION_COMMIT"
BUNDLE = "/workspace/textkit.bundle"
# main as the bundle has it, and the bundle's sha256 as generate.sh builds it.
ORIGINAL_MAIN = "c2789de5b7e65a741cf866568c06f0d06d24a28d"
BUNDLE_SHA256 = "696729a0ed96ba94a4d91b1c62e0d556cf520b0ef3c2da43a3f0a4975ced6831"

NUMBER = re.compile(r"[-+]?[0-9]+([.][0-9]+)?")
GROUPED = re.compile(r"[-+]?[0-9][0-9,]*([.][0-9]+)?")


def reference(text, column, delim=",", quote='"'):
    """(total, cells, skipped) as colsum's header comment describes them."""
    lines = [line[:-1] if line.endswith("\r") else line for line in text.split("\n")[:-1]]
    idx = lines[0].split(delim).index(column)
    total, cells, skipped = 0.0, 0, 0
    for line in lines[1:]:
        if line.startswith("#"):
            continue
        row = next(csv.reader([line], delimiter=delim, quotechar=quote))
        v = row[idx].strip(" \t") if idx < len(row) else ""
        if GROUPED.fullmatch(v):
            v = v.replace(",", "")
        if NUMBER.fullmatch(v):
            total += float(v)
            cells += 1
        else:
            skipped += 1
    return total, cells, skipped


JUNE = '''date,region,item,amount
2024-06-03,north,desk,480.00
2024-06-03,east,"monitor 24"" (matte)",215.00
2024-06-04,south,refund lamp,-120.50
2024-06-05,west,"shelf, oak",210.00
2024-06-06,north,"cable ""USB-C""",12.50
2024-06-07,east,"refund: monitor 27"", matte",-215.00
2024-06-08,south,chair,95.25
'''

# Doubled quotes before a delimiter inside quoted cells, in every column and position, and runs
# of two and three doubled quotes before one (a look-back of one or two quotes is not enough).
QUOTED = '''id,label,note,amount
1,"a"", b",x,10.00
2,plain,"c"",d"",e",20.50
3,"q""","""y"", z",-5.25
4,"""",z,1.00
5,"k, ""l"", m",n,2.00
6,"r"",s","t"",",-1.50
7,"u""","v",-3.75
8,w,"x""""",4.00
9,"y"""",z",v,8.00
10,""""",z",w,0.25
11,n,"m"""""",o",-0.75
'''

LAST_COLUMN = '''amount,label
7.50,"a"", b"
-2.25,"c"","
1.00,plain
'''

SEMICOLON = '''item;note;amount
"a"";b";x;3.50
"c";"d"";e";"1,000.25"
f;"g"";";-2
h;i;2,000.00
'''

PIPE = '''item|note|amount
"a""|b"|x|1.25
c|"d""|"|2.50
"e|f"|"g"""|"1,000.00"
'''

APOSTROPHE = """item,amount
'it''s, fine',4.00
'x',5.50
'27'', matte',-1.25
'p'''',q',0.50
plain,2.00
"""

MESSY = ("date,item,amount\r\n# a comment line,,999\r\n2024-01-01,\"a, b\",  12.00  \r\n"
         "2024-01-02,\"c\"\", d\",-2.50\r\n2024-01-03,e,\r\n2024-01-04,f,n/a\r\n"
         "2024-01-05,\"g\"\",h\",\"1,234.56\"\r\n")

FILES = {"june.csv": JUNE, "quoted.csv": QUOTED, "last.csv": LAST_COLUMN, "semi.csv": SEMICOLON, "pipe.csv": PIPE,
         "apos.csv": APOSTROPHE, "messy.csv": MESSY}


# Every git command runs without replace refs, and reads objects raw (cat-file without
# --filters), so neither `git replace`, grafts, nor filters or attributes in the repository's
# own configuration can show the verifier a history or a tree that main does not have.
GIT_ENV = {"GIT_NO_REPLACE_OBJECTS": "1", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null"}

EXTRACT = r"""set -euo pipefail
tree=$1 repo=$2
rm -rf "$tree" && mkdir -p "$tree"
git -C "$repo" ls-tree -r -z --full-tree main | while IFS= read -r -d '' entry; do
  meta=${entry%%$'\t'*} path=${entry#*$'\t'}
  set -- $meta
  [ "$2" = blob ] || continue
  case $path in /*|*..*) echo "odd path: $path" >&2; exit 3 ;; esac
  mkdir -p "$tree/$(dirname "$path")"
  git -C "$repo" cat-file blob "$3" > "$tree/$path"
  if [ "$1" = 100755 ]; then chmod +x "$tree/$path"; fi
done
"""


@pytest.fixture(scope="session")
def tree():
    """main's tree, blob by blob, written as the sandbox user, plus the test files."""
    r = nv.run(["bash", "-c", EXTRACT, "extract", TREE, REPO], env=GIT_ENV, timeout=120)
    assert r.exit == 0, f"reading main's tree failed: {r.stderr[-2000:]}"
    for name, text in FILES.items():
        nv.write(f"{TREE}-data/{name}", text)
    return TREE


def colsum(tree, *args, env=None):
    return nv.run(["bash", f"{tree}/bin/colsum", *args], cwd=tree, env=env or {}, timeout=30)


def expect_total(tree, name, args=(), column="amount", digits=2, env=None, **ref):
    total, _, _ = reference(FILES[name], column, **ref)
    r = colsum(tree, *args, f"{TREE}-data/{name}", column, env=env)
    assert r.exit == 0, f"colsum {' '.join(args)} {name} {column} failed: {r.stderr[-1000:]}"
    want = f"{total + 0:.{digits}f}\n"
    assert r.stdout == want, f"colsum {' '.join(args)} {name} {column}: {r.stdout!r}, expected {want!r}"


def git(*args, stdin=b""):
    return nv.run(["git", "-C", REPO, *args], env=GIT_ENV, stdin=stdin, timeout=60)


def parents_of_every_commit():
    """{commit: [parents]} from the raw commit objects of the repository."""
    r = git("cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype)")
    assert r.exit == 0, r.stderr[-500:]
    commits = [line.split()[0] for line in r.stdout.splitlines() if line.endswith(" commit")]
    r = git("cat-file", "--batch", stdin="".join(c + "\n" for c in commits))
    assert r.exit == 0, r.stderr[-500:]
    data, parents, pos = r.stdout_bytes, {}, 0
    while pos < len(data):
        eol = data.index(b"\n", pos)
        name, kind, size = data[pos:eol].decode().split()
        body = data[eol + 1:eol + 1 + int(size)]
        pos = eol + 1 + int(size) + 1
        header = body.split(b"\n\n", 1)[0].decode("utf-8", "replace")
        parents[name] = [line[7:] for line in header.splitlines() if line.startswith("parent ")]
    return parents


# --- the history ------------------------------------------------------------------------------

def test_main_is_a_new_commit_on_top_of_the_old_main():
    r = git("rev-parse", "--verify", "main^{commit}")
    assert r.exit == 0, f"{REPO} has no main branch: {r.stderr[-500:]}"
    head = r.stdout.strip()
    assert head != ORIGINAL_MAIN, "main was not changed: the fix must be committed on main"
    parents = parents_of_every_commit()
    seen, todo = set(), [head]
    while todo:
        c = todo.pop()
        if c in seen:
            continue
        seen.add(c)
        todo.extend(parents.get(c, []))
    assert ORIGINAL_MAIN in seen, "the original main is no longer an ancestor of main (history rewritten?)"


def test_bundle_is_left_as_it_was():
    data = nv.read(BUNDLE)
    assert data is not None, f"{BUNDLE} is missing or not a regular file"
    assert hashlib.sha256(data).hexdigest() == BUNDLE_SHA256, "textkit.bundle was changed"


def test_answer_is_one_full_hash():
    data = nv.read(ANSWER)
    assert data is not None, f"{ANSWER} is missing or not a regular file"
    lines = [line.strip() for line in data.decode("utf-8", "replace").splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one line, got {lines!r}"
    assert re.fullmatch(r"[0-9a-f]{40}", lines[0]), f"not a full commit hash: {lines[0]!r}"


# --- the reported total and its neighbours ---------------------------------------------------

def test_the_june_export(tree):
    expect_total(tree, "june.csv")


def test_doubled_quotes_before_a_delimiter_in_any_column(tree):
    expect_total(tree, "quoted.csv")


def test_doubled_quotes_before_a_delimiter_in_the_last_cell(tree):
    expect_total(tree, "last.csv")


def test_another_delimiter(tree):
    expect_total(tree, "semi.csv", ["-d", ";"], delim=";")


def test_a_delimiter_that_is_special_in_a_regular_expression(tree):
    expect_total(tree, "pipe.csv", ["-d", "|"], delim="|")


def test_another_quote_character(tree):
    expect_total(tree, "apos.csv", ["-q", "'"], quote="'")


def test_blanks_crs_comments_and_thousands(tree):
    expect_total(tree, "messy.csv")


# --- what colsum did on main before the fix, kept ---------------------------------------------

def test_digits(tree):
    expect_total(tree, "june.csv", ["-p", "0"], digits=0)
    expect_total(tree, "quoted.csv", ["-p", "3"], digits=3)
    expect_total(tree, "june.csv", [], digits=1, env={"COLSUM_DIGITS": "1"})
    expect_total(tree, "june.csv", ["-p", "4"], digits=4, env={"COLSUM_DIGITS": "1"})


def test_bad_digits_are_refused(tree):
    r = colsum(tree, "-p", "x", f"{TREE}-data/june.csv", "amount")
    assert r.exit == 2 and r.stdout == "", (r.exit, r.stdout)


def test_verbose_counts(tree):
    for name in ("messy.csv", "quoted.csv", "june.csv"):
        total, cells, skipped = reference(FILES[name], "amount")
        r = colsum(tree, "-v", f"{TREE}-data/{name}", "amount")
        assert r.exit == 0, r.stderr[-1000:]
        assert r.stdout == f"{total + 0:.2f}\n", (name, r.stdout)
        assert f"colsum: {cells} cells, {skipped} skipped\n" in r.stderr, (name, r.stderr)


def test_missing_column(tree):
    r = colsum(tree, f"{TREE}-data/june.csv", "price")
    assert r.exit == 2 and r.stdout == "", (r.exit, r.stdout)
    assert "june.csv" in r.stderr and "price" in r.stderr, r.stderr


def test_help_still_describes_every_option(tree):
    r = colsum(tree, "--help")
    assert r.exit == 0, r.stderr
    for option in ("-d DELIM", "-p DIGITS", "-q QUOTE", "-v ", "COLSUM_DIGITS"):
        assert option in r.stdout, f"--help lost {option!r}"


def test_the_repositorys_samples(tree):
    for path, want in (("data/sales.csv", "1661.50\n"), ("data/bank.csv", "3253.80\n"),
                       ("data/wide.csv", "16.25\n"), ("data/inventory.csv", None)):
        column = "qty" if "inventory" in path else "amount"
        r = colsum(tree, f"{tree}/{path}", column)
        assert r.exit == 0, (path, r.stderr[-1000:])
        assert r.stdout == (want or "62.00\n"), (path, r.stdout)
