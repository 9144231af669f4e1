"""Builds workspace/textkit.bundle deterministically (fixed dates and identities, so fixed
hashes; expected/FIRST_BAD_COMMIT pins the first bad commit). Run by generate.sh.

The history, v1.0..main (about sixty commits, most of them touching bin/colsum):
- commit X adds `is_number()` for a new --strict option; its pattern has no sign, which is
  harmless while only --strict uses it (sales.csv is never run with --strict);
- later commits move that helper, widen it (a leading "+") and touch the lines around it;
- commit Y (the first bad one) makes the plain sum skip cells that fail `is_number()`, so
  negative amounts (refunds) drop out of the total. Neither diff shows the bug alone;
- three stretches where colsum does not run at all (a mistyped include path, an awk syntax
  error, an unbound variable under `set -u`), two before Y and one after, each fixed a few
  commits later: a bisect must skip them;
- decoys: a "negative zero" commit, a "fix total" commit after Y, the smoke test (which
  passes whatever the total is).
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "workspace", "textkit.bundle")
AUTHORS = [("Ines Duarte", "ines@textkit.example"), ("Tom Berg", "tom@textkit.example"),
           ("Ravi Nair", "ravi@textkit.example"), ("Mei Chen", "mei@textkit.example")]


def git(*args, env=None):
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True,
                          env=env).stdout


class Repo:
    def __init__(self, root):
        self.root = root
        self.n = 0
        self.subjects = []

    def path(self, rel):
        return os.path.join(self.root, rel)

    def write(self, rel, text, mode=0o644):
        p = self.path(rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.chmod(p, mode)

    def read(self, rel):
        with open(self.path(rel), encoding="utf-8") as f:
            return f.read()

    def append(self, rel, text):
        old = self.read(rel) if os.path.exists(self.path(rel)) else ""
        self.write(rel, old + text)

    def edit(self, rel, old, new, count=1):
        text = self.read(rel)
        if text.count(old) != count:
            sys.exit(f"generate: {rel}: expected {count} of {old!r}, found {text.count(old)}")
        mode = os.stat(self.path(rel)).st_mode & 0o777
        self.write(rel, text.replace(old, new), mode)

    def commit(self, subject):
        self.n += 1
        name, email = AUTHORS[self.n % len(AUTHORS)]
        # One commit every 5 hours 20 minutes from 2024-06-01 08:00 UTC.
        stamp = 1717228800 + self.n * 19200
        env = dict(os.environ, GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=email,
                   GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=email,
                   GIT_AUTHOR_DATE=f"@{stamp} +0000", GIT_COMMITTER_DATE=f"@{stamp} +0000",
                   GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null")
        git("-C", self.root, "add", "-A", env=env)
        git("-C", self.root, "commit", "-q", "--no-verify", "-m", subject, env=env)
        self.subjects.append(subject)


COLSUM_V1 = r"""#!/bin/bash
# colsum FILE COLUMN: sum of a named numeric column of a CSV file with a header row.
set -euo pipefail
file=${1:?usage: colsum FILE COLUMN}
col=${2:?usage: colsum FILE COLUMN}
awk -F, -v col="$col" '
NR == 1 {
  for (i = 1; i <= NF; i++) if ($i == col) c = i
  if (!c) { print "colsum: no column " col > "/dev/stderr"; exit 2 }
  next
}
{ s += $c }
END { if (c) printf "%.2f\n", s }' "$file"
"""

SALES = """date,region,item,amount
2024-04-01,north,lamp,120.50
2024-04-01,south,desk,480.00
2024-04-02,north,chair,95.25
2024-04-03,east,lamp,120.50
2024-04-04,south,refund desk,-150.00
2024-04-05,west,shelf,210.00
2024-04-06,east,chair,95.25
2024-04-07,north,desk,480.00
2024-04-08,west,lamp,120.50
2024-04-09,south,refund lamp,-120.50
2024-04-10,east,shelf,210.00
"""

C = "bin/colsum"


def build(r):
    r.write("README.md", "# textkit\n\nSmall text and CSV utilities.\n\n"
            "- `bin/colsum FILE COLUMN` — sum of a named numeric column of a CSV file (with a header row).\n"
            "- `bin/wordcount FILE` — the ten most frequent words.\n")
    r.write(C, COLSUM_V1, 0o755)
    r.write("bin/wordcount", "#!/bin/bash\n# wordcount FILE: the ten most frequent words, lower-cased.\n"
            "set -euo pipefail\n"
            "tr -cs 'A-Za-z' '\\n' < \"${1:?usage: wordcount FILE}\" | tr 'A-Z' 'a-z' | grep -v '^$' "
            "| sort | uniq -c | sort -k1,1nr -k2 | head -10\n", 0o755)
    r.write("data/sales.csv", SALES)
    r.write("tests/run.sh", "#!/bin/bash\n# Smoke tests: run from the repository root.\nset -euo pipefail\n"
            "out=$(bin/colsum data/sales.csv amount)\n"
            "[ -n \"$out\" ] || { echo \"colsum printed nothing\"; exit 1; }\n"
            "bin/wordcount README.md > /dev/null\necho \"ok\"\n", 0o755)
    r.write("CHANGES.md", "# Changes\n\n## 1.0\n\n- colsum and wordcount.\n\n## unreleased\n\n")
    r.commit("textkit 1.0")
    git("-C", r.root, "tag", "v1.0")

    # --- after 1.0 ------------------------------------------------------------------------
    r.edit(C, "# colsum FILE COLUMN: sum of a named numeric column of a CSV file with a header row.\n",
           "# colsum FILE COLUMN\n#   Sum of the named numeric column of a CSV file whose first row names the columns.\n")
    r.commit("colsum: reword the header comment")

    r.write("data/inventory.csv", "sku,item,qty\nL-1,lamp,12\nD-2,desk,3\nC-3,chair,40\nS-4,shelf,7\n")
    r.commit("data: sample inventory file")

    r.edit(C, "col=${2:?usage: colsum FILE COLUMN}\n",
           "col=${2:?usage: colsum FILE COLUMN}\n"
           "[ -r \"$file\" ] || { echo \"colsum: cannot read $file\" >&2; exit 2; }\n")
    r.commit("colsum: say so when FILE cannot be read")

    r.append("README.md", "\nExamples:\n\n    bin/colsum data/sales.csv amount\n    bin/wordcount README.md\n")
    r.commit("README: examples")

    r.edit(C, "  for (i = 1; i <= NF; i++) if ($i == col) c = i\n  if (!c) {",
           "  for (i = 1; i <= NF; i++) if ($i == col) idx = i\n  if (!idx) {")
    r.edit(C, "{ s += $c }\nEND { if (c) printf \"%.2f\\n\", s }",
           "{ total += $idx }\nEND { if (idx) printf \"%.2f\\n\", total }")
    r.commit("colsum: clearer awk variable names")

    r.append("tests/run.sh", "bin/colsum data/inventory.csv qty > /dev/null\n")
    r.commit("tests: run colsum on the inventory sample")

    r.edit(C, "# colsum FILE COLUMN\n", "# colsum [-d DELIM] FILE COLUMN\n")
    r.edit(C, "#   Sum of the named numeric column of a CSV file whose first row names the columns.\n",
           "#   Sum of the named numeric column of a CSV file whose first row names the columns.\n"
           "#   -d DELIM   field delimiter (default: a comma)\n")
    r.edit(C, "file=${1:?usage: colsum FILE COLUMN}\ncol=${2:?usage: colsum FILE COLUMN}\n",
           "usage() { echo \"usage: colsum [-d DELIM] FILE COLUMN\" >&2; exit 2; }\n"
           "delim=,\n"
           "while getopts 'd:' opt; do\n"
           "  case $opt in\n"
           "    d) delim=$OPTARG ;;\n"
           "    *) usage ;;\n"
           "  esac\n"
           "done\n"
           "shift $((OPTIND - 1))\n"
           "[ $# -eq 2 ] || usage\n"
           "file=$1\ncol=$2\n")
    r.edit(C, "awk -F, -v col=\"$col\" '", "awk -F\"$delim\" -v col=\"$col\" '")
    r.commit("colsum: -d DELIM for files that are not comma separated")

    r.edit("bin/wordcount", "lower-cased.", "lower-cased, most frequent first.")
    r.commit("wordcount: say the order in the header comment")

    r.edit(C, "{ total += $idx }\n",
           "{\n  v = $idx\n  sub(/^[ \\t]+/, \"\", v)\n  sub(/[ \\t]+$/, \"\", v)\n  total += v\n}\n")
    r.commit("colsum: trim blanks around cells")

    r.edit(C, "  sub(/[ \\t]+$/, \"\", v)\n", "  sub(/[ \\t\\r]+$/, \"\", v)\n")
    r.commit("colsum: ignore the CR of files saved on Windows")

    r.append("CHANGES.md", "- colsum: -d DELIM; blanks and CRs around cells are ignored.\n")
    r.commit("CHANGES: colsum options")

    # Not runnable (1/3): the include path is mistyped; fixed three commits later.
    r.write("lib/common.sh", "# Shared helpers for textkit scripts. Sourced, never run.\n"
            "die() { echo \"$(basename \"$0\"): $*\" >&2; exit 2; }\n")
    r.edit(C, "set -euo pipefail\n", "set -euo pipefail\n. \"$(dirname \"$0\")/../lib/comon.sh\"\n")
    r.edit(C, "[ -r \"$file\" ] || { echo \"colsum: cannot read $file\" >&2; exit 2; }\n",
           "[ -r \"$file\" ] || die \"cannot read $file\"\n")
    r.commit("colsum: share the error helper in lib/common.sh")

    r.edit(C, "usage() { echo \"usage: colsum [-d DELIM] FILE COLUMN\" >&2; exit 2; }\n",
           "usage() { echo \"usage: colsum [-d DELIM] FILE COLUMN (see the header of $0)\" >&2; exit 2; }\n")
    r.commit("colsum: point the usage message at the header comment")

    r.append("README.md", "\nShared shell helpers live in `lib/`.\n")
    r.commit("README: mention lib/")

    r.edit(C, "lib/comon.sh", "lib/common.sh")
    r.commit("colsum: fix the path of lib/common.sh")

    r.edit(C, "  next\n}\n{\n", "  next\n}\n/^#/ { next }\n{\n")
    r.edit(C, "#   -d DELIM   field delimiter (default: a comma)\n",
           "#   -d DELIM   field delimiter (default: a comma)\n#   Lines starting with # are comments.\n")
    r.commit("colsum: skip comment lines")

    r.write("data/words-0.txt", "the quick brown fox jumps over the lazy dog\nthe dog sleeps\n")
    r.commit("data: sample text for wordcount")

    # X: is_number() arrives for --strict only. Its pattern has no sign.
    r.edit(C, "# colsum [-d DELIM] FILE COLUMN\n", "# colsum [-d DELIM] [-s] FILE COLUMN\n")
    r.edit(C, "#   Lines starting with # are comments.\n",
           "#   -s         strict: fail on a cell that is not a number (exit status 3)\n"
           "#   Lines starting with # are comments.\n")
    r.edit(C, "usage: colsum [-d DELIM] FILE COLUMN", "usage: colsum [-d DELIM] [-s] FILE COLUMN")
    r.edit(C, "delim=,\nwhile getopts 'd:' opt; do\n", "delim=, strict=0\nwhile getopts 'd:s' opt; do\n")
    r.edit(C, "    d) delim=$OPTARG ;;\n", "    d) delim=$OPTARG ;;\n    s) strict=1 ;;\n")
    r.edit(C, "awk -F\"$delim\" -v col=\"$col\" '\n",
           "awk -F\"$delim\" -v col=\"$col\" -v strict=\"$strict\" '\n"
           "function is_number(v) { return v ~ /^[0-9]+([.][0-9]+)?$/ }\n")
    r.edit(C, "  total += v\n}\n",
           "  if (strict && !is_number(v)) {\n"
           "    printf \"colsum: line %d: not a number: %s\\n\", NR, v > \"/dev/stderr\"\n"
           "    failed = 1\n    exit 3\n  }\n"
           "  total += v\n}\n")
    r.edit(C, "END { if (idx) printf", "END { if (failed) exit 3; if (idx) printf")
    r.commit("colsum: -s (strict) fails on cells that are not numbers")

    r.append("tests/run.sh", "bin/colsum -s data/inventory.csv qty > /dev/null\n")
    r.commit("tests: strict mode on the inventory sample")

    # Not runnable (2/3): an awk syntax error, fixed only nine commits later (it spans the
    # middle of v1.0..main, where a bisect starts).
    r.edit(C, "# colsum [-d DELIM] [-s] FILE COLUMN\n", "# colsum [-d DELIM] [-p DIGITS] [-s] FILE COLUMN\n")
    r.edit(C, "delim=, strict=0\nwhile getopts 'd:s' opt; do\n",
           "delim=, strict=0 digits=2\nwhile getopts 'd:p:s' opt; do\n")
    r.edit(C, "    s) strict=1 ;;\n", "    s) strict=1 ;;\n    p) digits=$OPTARG ;;\n")
    r.edit(C, "-v strict=\"$strict\" '\n", "-v strict=\"$strict\" -v digits=\"$digits\" '\n")
    r.edit(C, "END { if (failed) exit 3; if (idx) printf \"%.2f\\n\", total }",
           "END { if (failed) exit 3; if (idx) printf \"%.\" digits \"f\\n\", total")
    r.commit("colsum: -p DIGITS sets the digits after the point")

    r.append("CHANGES.md", "- colsum: -s (strict) and -p DIGITS.\n")
    r.commit("CHANGES: strict mode and precision")

    r.edit(C, "#   -s         strict:", "#   -p DIGITS  digits after the decimal point (default: 2)\n#   -s         strict:")
    r.edit(C, "usage: colsum [-d DELIM] [-s] FILE COLUMN", "usage: colsum [-d DELIM] [-p DIGITS] [-s] FILE COLUMN")
    r.commit("colsum: document -p")

    r.edit("bin/wordcount", "grep -v '^$'", "grep -v '^$' || true)")
    r.edit("bin/wordcount", "tr -cs 'A-Za-z'", "(tr -cs 'A-Za-z'")
    r.commit("wordcount: an empty file is not an error")

    # Moves the helpers to the top of the awk program: blame on the pattern now points here.
    r.edit(C, "function is_number(v) { return v ~ /^[0-9]+([.][0-9]+)?$/ }\n",
           "# Helpers first.\n"
           "function is_number(v) { return v ~ /^[0-9]+([.][0-9]+)?$/ }\n"
           "function trim(v) { sub(/^[ \\t]+/, \"\", v); sub(/[ \\t\\r]+$/, \"\", v); return v }\n")
    r.edit(C, "  v = $idx\n  sub(/^[ \\t]+/, \"\", v)\n  sub(/[ \\t\\r]+$/, \"\", v)\n",
           "  v = trim($idx)\n")
    r.commit("colsum: helpers at the top of the awk program")

    r.append("CHANGES.md", "- wordcount: empty input prints nothing.\n")
    r.commit("CHANGES: wordcount")

    r.edit(C, "END { if (failed) exit 3; if (idx) printf",
           "END {\n  if (failed) exit 3\n  if (total == 0) total = 0    # never print -0.00\n  if (idx) printf")
    r.commit("colsum: do not print a negative zero")

    r.write("data/words-1.txt", "a lamp a desk a chair\nthe shelf\n")
    r.commit("data: more sample text")

    r.append("README.md", "\n`bin/colsum -p 0` prints whole numbers.\n")
    r.commit("README: colsum -p")

    r.edit(C, "printf \"%.\" digits \"f\\n\", total", "printf \"%.\" digits \"f\\n\", total }")
    r.commit("colsum: close the END block again")

    r.edit(C, "delim=, strict=0 digits=2\n", "delim=, strict=0 digits=2 verbose=0\n")
    r.edit(C, "while getopts 'd:p:s' opt; do\n", "while getopts 'd:p:sv' opt; do\n")
    r.edit(C, "    p) digits=$OPTARG ;;\n", "    p) digits=$OPTARG ;;\n    v) verbose=1 ;;\n")
    r.edit(C, "-v digits=\"$digits\" '\n", "-v digits=\"$digits\" -v verbose=\"$verbose\" '\n")
    r.edit(C, "  total += v\n}\n", "  total += v\n  cells++\n}\n")
    r.edit(C, "  if (idx) printf", "  if (verbose) printf \"colsum: %d cells\\n\", cells > \"/dev/stderr\"\n  if (idx) printf")
    r.edit(C, "#   Lines starting with # are comments.\n",
           "#   -v         report the number of cells summed on stderr\n#   Lines starting with # are comments.\n")
    r.commit("colsum: -v reports how many cells were summed")

    r.append("README.md", "\n`bin/colsum -v` reports on stderr how many cells it summed.\n")
    r.commit("README: colsum -v")

    r.edit(C, "function is_number(v) { return v ~ /^[0-9]+([.][0-9]+)?$/ }\n",
           "function is_number(v) { return v ~ /^[+]?[0-9]+([.][0-9]+)?$/ }\n")
    r.commit("colsum: strict mode accepts a leading plus sign")

    r.append("tests/run.sh", "bin/colsum -p 0 data/sales.csv amount > /dev/null\n")
    r.commit("tests: precision 0")

    r.edit(C, "  if (!idx) { print \"colsum: no column \" col > \"/dev/stderr\"; exit 2 }\n",
           "  if (!idx) { printf \"colsum: %s: no column \\\"%s\\\"\\n\", FILENAME, col > \"/dev/stderr\"; exit 2 }\n")
    r.commit("colsum: name the file when a column is missing")

    r.append("CHANGES.md", "- colsum: -v; clearer error for a missing column.\n")
    r.commit("CHANGES: colsum -v")

    # Y: the first bad commit. The plain sum now skips cells that fail is_number(), which
    # was written (commit X) for strict mode and does not allow a minus sign.
    r.edit(C, "#   -v         report the number of cells summed on stderr\n",
           "#   -v         report the number of cells summed and skipped on stderr\n"
           "#   Cells that are blank or not numbers are skipped (with -s they are an error).\n")
    r.edit(C, "  total += v\n  cells++\n}\n",
           "  if (!is_number(v)) { skipped++; next }\n  total += v\n  cells++\n}\n")
    r.edit(C, "printf \"colsum: %d cells\\n\", cells > \"/dev/stderr\"",
           "printf \"colsum: %d cells, %d skipped\\n\", cells, skipped > \"/dev/stderr\"")
    r.commit("colsum: skip blank and non-numeric cells instead of counting them as zero")

    r.write("data/words-2.txt", "north south east west\nnorth again\n")
    r.commit("data: compass words")

    r.append("tests/run.sh", "bin/colsum -v data/sales.csv amount 2> /dev/null > /dev/null\n")
    r.commit("tests: verbose mode")

    # Not runnable (3/3): an unbound variable under set -u; fixed two commits later.
    r.edit(C, "delim=, strict=0 digits=2 verbose=0\n",
           "delim=, strict=0 verbose=0\ndigits=${COLSUM_DIGITS:-$default_digits}\n")
    r.edit(C, "#   Lines starting with # are comments.\n",
           "#   Lines starting with # are comments. COLSUM_DIGITS sets the default of -p.\n")
    r.commit("colsum: COLSUM_DIGITS sets the default precision")

    r.append("CHANGES.md", "- colsum: COLSUM_DIGITS.\n")
    r.commit("CHANGES: COLSUM_DIGITS")

    r.edit(C, "delim=, strict=0 verbose=0\n", "delim=, strict=0 verbose=0 default_digits=2\n")
    r.commit("colsum: define default_digits before using it")

    r.edit("bin/wordcount", "| head -10", "| head -\"${WORDCOUNT_TOP:-10}\"")
    r.commit("wordcount: WORDCOUNT_TOP")

    r.edit(C, "  if (idx) printf \"%.\" digits \"f\\n\", total }", "  if (idx) printf \"%.\" digits \"f\\n\", total + 0\n}")
    r.commit("colsum: fix the total of files without a trailing newline")

    r.append("CHANGES.md", "- wordcount: WORDCOUNT_TOP.\n")
    r.commit("CHANGES: wordcount top")

    r.edit(C, "usage() { echo", "if [ \"${1:-}\" = --help ]; then\n  sed -n '2,/^set -euo/p' \"$0\" | sed '$d; s/^# \\{0,1\\}//'\n  exit 0\nfi\nusage() { echo")
    r.commit("colsum: --help prints the header comment")

    r.write("data/words-0.txt", r.read("data/words-0.txt") + "a fox is quick\n")
    r.commit("data: one more line of sample text")

    r.edit(C, "# Helpers first.\n", "# Helpers first: is_number (strict mode, skipping) and trim (blanks, CR).\n")
    r.commit("colsum: comment the awk helpers")

    r.append("tests/run.sh", "bin/colsum --help > /dev/null\n")
    r.commit("tests: --help")

    r.edit(C, "[ -r \"$file\" ] || die \"cannot read $file\"\n",
           "[ -r \"$file\" ] || die \"cannot read $file\"\n"
           "case $digits in\n  ''|*[!0-9]*) die \"-p wants a number of digits, not '$digits'\" ;;\nesac\n")
    r.commit("colsum: reject -p values that are not numbers")

    r.append("README.md", "\nRun `tests/run.sh` from the repository root before sending a change.\n")
    r.commit("README: how to run the smoke tests")

    r.edit(C, "    printf \"colsum: line %d: not a number: %s\\n\", NR, v > \"/dev/stderr\"\n",
           "    printf \"colsum: %s line %d: not a number: \\\"%s\\\"\\n\", FILENAME, NR, v > \"/dev/stderr\"\n")
    r.commit("colsum: strict errors name the file and quote the cell")

    r.edit("bin/wordcount", "# wordcount FILE:", "# wordcount FILE (WORDCOUNT_TOP=N for another count):")
    r.commit("wordcount: document WORDCOUNT_TOP")

    r.edit(C, "-v verbose=\"$verbose\" '\n", "-v verbose=\"$verbose\" -- '\n")
    r.commit("colsum: end awk's options before the program")

    r.append("CHANGES.md", "- colsum: --help; -p is checked.\n")
    r.commit("CHANGES: colsum --help")

    r.edit(C, "  if (verbose) printf", "  # The summary goes to stderr so the total stays alone on stdout.\n  if (verbose) printf")
    r.commit("colsum: comment why -v writes to stderr")

    r.write("data/words-1.txt", r.read("data/words-1.txt") + "the lamp again\n")
    r.commit("data: sample text for the top-N example")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "textkit")
        env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null")
        subprocess.run(["git", "init", "-q", "-b", "main", root], check=True, env=env)
        build(Repo(root))
        if os.path.exists(OUT):
            os.unlink(OUT)
        subprocess.run(["git", "-C", root, "-c", "pack.threads=1", "bundle", "create", "-q", OUT, "--all"],
                       check=True, env=env)
        sys.stdout.write(git("-C", root, "log", "--format=%H %s", "--reverse", env=env))


if __name__ == "__main__":
    main()
