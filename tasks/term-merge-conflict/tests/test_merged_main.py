"""Hidden checks of the merge result in /workspace/billing.

The runner (this file, as the verifier user) never runs or loads the merged code. It asks
the broker to run git as the sandbox user (hooks, fsmonitor, system/global config and
replace objects disabled) and trusts git for no more than the name `refs/heads/main`, the
index and the merge state: the commits and trees are read as raw objects with `git
cat-file --batch` and checked here against their ids (sha1), and the history (parents,
ancestry) and main's committed tree (not the working tree) are walked here from them, so
grafts, replace refs or a forged commit-graph cannot change what the tests see. The static
checks (markers, changelog, old names parsed with ast) read those bytes, and the runner
writes them, as the sandbox user, into a private folder. Every behaviour check then runs that copy in its own
`python3 -I` process as the sandbox user (tests/probes/billing_probe.py), which prints its
observations as one JSON line; the expected values stay here.
"""
import ast
import functools
import hashlib
import importlib.util
import io
import json
import marshal
import os
import re
import secrets

import pytest

import nabverify as nv

REPO = "/workspace/billing"
MAIN_TIP = "bf9832df95bea3aa2091470a31b494199e24fef0"
FEATURE_TIP = "5a0ed06ed0df6a5621ced755558ce4148c2f31de"
ENV = {"HOME": "/tmp", "PATH": "/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null",
       "GIT_NO_REPLACE_OBJECTS": "1", "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"}
PROBE = "/nab/probes/billing_probe.py"

# Every unit test on either side of the merge (module: Class.method), both tips.
BOTH_SIDES_TESTS = {
    'tests.test_by_currency': ['ByCurrencyTest.test_aging_per_currency', 'ByCurrencyTest.test_totals',
                               'ByCurrencyTest.test_vat_per_currency'],
    'tests.test_cli': ['CliTest.test_convert', 'CliTest.test_format'],
    'tests.test_csv': ['CsvTest.test_export_lines', 'CsvTest.test_export_totals', 'CsvTest.test_export_totals_thousands',
                       'CsvTest.test_import'],
    'tests.test_customers': ['CustomerTest.test_address', 'CustomerTest.test_registry'],
    'tests.test_dates': ['DatesTest.test_dates'],
    'tests.test_discounts': ['DiscountTest.test_discounted_line', 'DiscountTest.test_percent_off'],
    'tests.test_fx': ['ConvertTest.test_convert', 'ConvertTest.test_inverse_rate', 'ConvertTest.test_same_currency',
                      'QuoteTest.test_quote', 'QuoteTest.test_quote_uses_money_formatting'],
    'tests.test_invoice': ['InvoiceTest.test_amounts', 'InvoiceTest.test_credit_note', 'InvoiceTest.test_due',
                           'InvoiceTest.test_lines_are_fixed', 'InvoiceTest.test_unknown_currency'],
    'tests.test_json': ['JsonTest.test_export'],
    'tests.test_money': ['CurrencyFormatTest.test_exponents', 'CurrencyFormatTest.test_parse_per_currency',
                         'CurrencyFormatTest.test_thousands', 'FormatTest.test_format', 'FormatTest.test_symbol',
                         'NegativeTest.test_credit_notes', 'NegativeTest.test_parse_negative', 'ParseTest.test_parse',
                         'SignatureTest.test_currency_is_required_and_keyword_only'],
    'tests.test_numbering': ['NumberingTest.test_next'],
    'tests.test_payments': ['PaymentsTest.test_open', 'PaymentsTest.test_payment_in_the_invoice_currency',
                            'PaymentsTest.test_reminder'],
    'tests.test_render': ['RenderTest.test_credit_note', 'RenderTest.test_html_total', 'RenderTest.test_markdown',
                          'RenderTest.test_text_other_currency', 'RenderTest.test_text_total'],
    'tests.test_reports': ['ReportsTest.test_aging', 'ReportsTest.test_buckets', 'ReportsTest.test_summary_and_top',
                           'ReportsTest.test_vat'],
    'tests.test_rounding': ['RoundingTest.test_discount_halves_round_up', 'RoundingTest.test_half_up',
                            'RoundingTest.test_tax_halves_round_up'],
    'tests.test_statement': ['StatementTest.test_settled', 'StatementTest.test_two_currencies'],
    'tests.test_tax': ['TaxTest.test_rates', 'TaxTest.test_tax'],
    'tests.test_validate': ['ValidateTest.test_empty', 'ValidateTest.test_ok'],
}


def run_git(*args, stdin=b""):
    argv = ["git", "-c", "safe.directory=*", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null",
            "-C", REPO, *args]
    r = nv.run(argv, stdin=stdin, cwd="/workspace", env=ENV, timeout=60, max_output=64 << 20)
    assert not r.timed_out and r.stdout_cut == 0, f"git {args}: {r.describe()}"
    return r


def git(*args, stdin=b""):
    r = run_git(*args, stdin=stdin)
    assert r.exit == 0, f"git {args}: {r.stderr[-2000:]}"
    return r.stdout_bytes


def objects(oids):
    """{oid: (type, bytes)} read with one `git cat-file --batch`; each object is checked here
    against its id (sha1 of its header and bytes), so git (or anything in the repository:
    grafts, replace refs, a commit-graph) can say nothing about them that they do not hold."""
    oids = sorted(set(oids))
    out = git("cat-file", "--batch", stdin="".join(f"{oid}\n" for oid in oids).encode())
    got, pos = {}, 0
    for oid in oids:
        end = out.index(b"\n", pos)
        head = out[pos:end].decode().split()
        assert len(head) == 3 and head[0] == oid, f"git cat-file answered {head} for {oid}"
        kind, size = head[1], int(head[2])
        data = out[end + 1:end + 1 + size]
        assert len(data) == size and out[end + 1 + size:end + 2 + size] == b"\n"
        assert hashlib.sha1(b"%s %d\0" % (kind.encode(), size) + data).hexdigest() == oid, \
            f"object {oid} is not what its id says"
        got[oid] = (kind, data)
        pos = end + 2 + size
    return got


@functools.lru_cache(maxsize=None)
def history():
    """(main's tip, {commit: (tree, [parents])}) for every commit reachable from it, read from
    the commit objects themselves."""
    tip = git("rev-parse", "--verify", "-q", "refs/heads/main^{commit}").decode().strip()
    commits, todo = {}, {tip}
    # Ask for the commits git lists in one go (a hint: each is read and checked, and any
    # parent it left out is fetched next).
    todo |= set(git("rev-list", "refs/heads/main").decode().split())
    while todo:
        for oid, (kind, data) in objects(todo).items():
            assert kind == "commit", f"{oid} is a {kind}, not a commit"
            header = data.split(b"\n\n", 1)[0].decode("utf-8", "replace").splitlines()
            tree = [ln[5:] for ln in header if ln.startswith("tree ")]
            parents = [ln[7:] for ln in header if ln.startswith("parent ")]
            assert len(tree) == 1, f"commit {oid} has no single tree"
            commits[oid] = (tree[0], parents)
        todo = {p for _, ps in commits.values() for p in ps if p not in commits}
    return tip, commits


def first_parent_chain():
    tip, commits = history()
    chain, c = [], tip
    while c is not None:
        chain.append(c)
        parents = commits[c][1]
        c = parents[0] if parents else None
    return chain


def is_ancestor(oid):
    tip, commits = history()
    seen, todo = set(), [tip]
    while todo:
        c = todo.pop()
        if c == oid:
            return True
        if c not in seen:
            seen.add(c)
            todo.extend(commits[c][1])
    return False


@functools.lru_cache(maxsize=None)
def committed():
    """{path: bytes} of main's committed tree, walked here from its tree objects."""
    tip, commits = history()
    blobs, level = {}, [("", commits[tip][0])]
    while level:
        got = objects(oid for _, oid in level)
        nxt = []
        for prefix, oid in level:
            kind, data = got[oid]
            assert kind == "tree", f"{prefix or '/'}: a {kind}, not a tree"
            pos = 0
            while pos < len(data):
                sp = data.index(b" ", pos)
                nul = data.index(b"\0", sp)
                mode, name = data[pos:sp], data[sp + 1:nul].decode("utf-8", "surrogateescape")
                sha = data[nul + 1:nul + 21].hex()
                pos = nul + 21
                if mode == b"40000":
                    nxt.append((f"{prefix}{name}/", sha))
                else:
                    assert mode in (b"100644", b"100755", b"120000"), f"{prefix}{name}: mode {mode.decode()}"
                    blobs[f"{prefix}{name}"] = sha
        level = nxt
    got = objects(blobs.values())
    for path, oid in blobs.items():
        assert got[oid][0] == "blob", f"{path}: a {got[oid][0]}, not a blob"
    return {path: got[oid][1] for path, oid in sorted(blobs.items())}


def blob(path):
    data = committed().get(path)
    assert data is not None, f"{path} is not in main's committed tree"
    return data.decode()


def main_files():
    return list(committed())


@pytest.fixture(scope="module")
def tree():
    """A copy of main's committed tree, written as the sandbox user into a folder of its own,
    and its byte code, compiled here from the same bytes into a folder only this user can
    write (the probes read it and never write one: see billing_probe.py)."""
    out = f"/tmp/merged-{secrets.token_hex(8)}"
    for f, data in committed().items():
        nv.write(f"{out}/{f}", data)
    compile_tree(out, f"{out}.pyc")
    return out


def compile_tree(tree, cache):
    """Checked-hash byte code (PEP 552: valid only while the source hashes the same) of every
    .py file of the committed tree, at CACHE/<path>c, where billing_probe.py looks for it.
    compile() only parses; nothing of the code runs here. A file that does not compile is
    left out (the probe then compiles it and reports what that raises)."""
    def folder(path):
        # Readable by the sandbox user whatever this process's umask; writable by this one.
        if not os.path.isdir(path):
            folder(os.path.dirname(path))
            os.mkdir(path)
            os.chmod(path, 0o755)

    folder(cache)
    for f, data in committed().items():
        if not f.endswith(".py"):
            continue
        try:
            code = compile(data, f"{tree}/{f}", "exec", dont_inherit=True)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        pyc = f"{cache}/{f}c"
        folder(os.path.dirname(pyc))
        with open(pyc, "wb") as fh:
            fh.write(importlib.util.MAGIC_NUMBER + (0b11).to_bytes(4, "little")
                     + importlib.util.source_hash(data) + marshal.dumps(code))
        os.chmod(pyc, 0o644)


def probe(tree, case, args=None):
    """Runs one case of billing_probe.py against the merged package, as the sandbox user, and
    returns its result (plain data)."""
    r = nv.run(["python3", "-I", PROBE, tree, case, json.dumps(args)], cwd="/tmp", env=ENV, timeout=120)
    assert r.exit == 0 and not r.timed_out, f"the probe did not finish: {r.describe()}"
    lines = r.stdout.splitlines()
    assert len(lines) == 1, f"the probe printed {len(lines)} lines, not one: {r.stdout[-2000:]}"
    reply = json.loads(lines[0])
    assert reply.get("billing_file") == f"{tree}/billing/__init__.py", reply.get("billing_file")
    assert "error" not in reply, f"the merged code failed:\n{reply['error']}"
    return reply["result"]


# ---- the merge itself -------------------------------------------------------------------------

def test_merge_commit_on_main():
    assert git("symbolic-ref", "--short", "HEAD").decode().strip() == "main", "HEAD is not on main"
    # Follow-up commits on top of the merge are fine; the merge itself must be on main's
    # first-parent line, with main's old tip first and the branch tip second.
    _, commits = history()
    assert any(commits[c][1] == [MAIN_TIP, FEATURE_TIP] for c in first_parent_chain()), \
        "no merge commit of main and feature/multi-currency on main's first-parent history"


def test_history_not_rewritten():
    # main's old history is still main's history (no rebase/reset of main's own commits).
    assert MAIN_TIP in first_parent_chain(), "main's previous tip is not on main's first-parent history"
    for tip in (MAIN_TIP, FEATURE_TIP):
        assert is_ancestor(tip), f"{tip} is no longer an ancestor of main"


def test_nothing_unmerged_or_uncommitted():
    assert git("ls-files", "-u") == b"", "unmerged paths remain"
    assert run_git("rev-parse", "-q", "--verify", "MERGE_HEAD").exit != 0, "a merge is still in progress"
    for f, data in committed().items():
        # Read through the broker: a regular file (a link is not followed, and fails).
        work = nv.read(f"{REPO}/{f}")
        assert work is not None, f"{f}: missing from the working tree"
        assert work == data, f"{f}: uncommitted changes"


def test_no_conflict_markers():
    for f, data in committed().items():
        # Lines as a text-mode file gives them (universal newlines).
        for n, line in enumerate(io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace"), 1):
            assert not re.match(r"(<{7}|>{7}|={7}|\|{7})( |$)", line), f"conflict marker in {f}:{n}"


def test_changelog_keeps_both_sides():
    log = blob("CHANGELOG.md")
    assert "## 0.9.0 (2024-03-01)" in log
    unreleased = log.split("## Unreleased", 1)[1].split("## 0.9.0", 1)[0]
    for entry in ("`Invoice.lines` is a tuple, fixed when the invoice is made",      # main
                  "VAT rates are in per cent",
                  "`Payment.currency` defaults to `None`",
                  "JSON export: `amounts` (net, tax, total)",
                  "`Invoice.total()` is now the property `Invoice.total_cents`",
                  "`money.format_money(cents, *, currency)`",
                  "Fix: negative amounts (credit notes)",
                  "`billing.util.dates` moved to `billing.core.dates`",
                  "Use `money.round_half_up` for every computed amount",
                  "`billing convert AMOUNT SRC DST`",                               # feature
                  "CSV exports have a currency column",
                  "Customer statements with a balance per currency",
                  "Currency conversion (`billing.fx`)",
                  "JPY without decimals, KWD with three"):
        assert entry in unreleased, f"changelog entry lost: {entry}"


def test_both_sides_unit_tests_kept_and_passing(tree):
    # `unittest discover -s tests -t .` in the merged tree, run by the probe: each test's id
    # and outcome come back as data.
    got = probe(tree, "unit_tests")
    assert got["successful"] is True and got["ran"] > 0, f"the project's unit tests fail: {got['problems']}"
    passed = set()
    for test_id, outcome in got["outcomes"].items():
        m = re.fullmatch(r"(tests\.\w+)\.(\w+)\.(test_\w+)", test_id)
        if m and outcome == "ok":
            passed.add(f"{m.group(1)}:{m.group(2)}.{m.group(3)}")
    missing = [f"{mod}:{t}" for mod, tests in BOTH_SIDES_TESTS.items() for t in tests if f"{mod}:{t}" not in passed]
    assert not missing, f"unit tests from one side of the merge were dropped or did not pass: {missing}"


# ---- main's side: the API changes stand --------------------------------------------------------

def test_main_api_changes_stand(tree):
    got = probe(tree, "main_api")
    assert got["to_text"] is False, "money.to_text is back (main renamed it to format_money)"
    assert got["total"] is False, "Invoice.total is back (main made it the property total_cents)"
    assert got["total_cents"] == 5289
    assert got["util_dates"] is False and got["core_dates"] is True, "billing.util.dates is back"
    assert got["currency_kind"] == "KEYWORD_ONLY" and got["currency_default"] is True
    assert got["no_currency"] == "TypeError"
    assert got["rate_standard"] == "24", "VAT rates are no longer in per cent (main's change)"
    assert got["payment_currency_default"] == "None", "Payment.currency no longer defaults to the invoice's (None)"
    assert got["lines_type"] == "tuple", "Invoice.lines is no longer fixed when the invoice is made (a tuple)"


def test_no_code_uses_the_old_names():
    # Parsed, not grepped: comments and docstrings may mention the old names.
    found = []
    for f in main_files():
        if not (f.startswith("billing/") and f.endswith(".py")):
            continue
        for node in ast.walk(ast.parse(blob(f), f)):
            if isinstance(node, ast.Name) and node.id == "to_text" or \
                    isinstance(node, ast.Attribute) and node.attr in ("to_text", "total"):
                found.append(f"{f}:{node.lineno}")
            elif isinstance(node, ast.ImportFrom):
                names = {a.name for a in node.names}
                if (node.module or "").endswith("util.dates") or (node.module or "").endswith("util") and "dates" in names \
                        or "to_text" in names:
                    found.append(f"{f}:{node.lineno}")
    assert not found, f"the package still uses APIs main renamed or moved (to_text, .total, util.dates): {found}"


# ---- both sides at once: amounts -------------------------------------------------------------

FORMAT_CASES = [
    (1999, "EUR", False, "19.99"), (5, "EUR", False, "0.05"), (0, "EUR", False, "0.00"),
    (123456789, "EUR", False, "1,234,567.89"), (1999, "JPY", False, "1,999"), (1999, "KWD", False, "1.999"),
    (250000, "JPY", True, "¥250,000"), (1999, "USD", True, "$19.99"),
    (-150, "EUR", False, "-1.50"), (-5, "EUR", False, "-0.05"), (-99, "USD", False, "-0.99"),
    (-123456789, "EUR", False, "-1,234,567.89"), (-150, "JPY", False, "-150"), (-1234, "KWD", False, "-1.234"),
    (-1, "KWD", False, "-0.001"), (-100000, "JPY", False, "-100,000"), (-150, "GBP", True, "-£1.50"),
    (-250000, "JPY", True, "-¥250,000"), (-1500, "KWD", True, "-KD 1.500"), (-123456, "CHF", True, "-CHF 1,234.56"),
]


def test_format_money_both_sides(tree):
    got = probe(tree, "format_money", [case[:3] for case in FORMAT_CASES])
    wrong = [(case, out) for case, out in zip(FORMAT_CASES, got) if out != case[3]]
    assert not wrong, f"(cents, currency, symbol, expected) -> got: {wrong}"


PARSE_CASES = [
    ("19.99", "EUR", 1999), ("7", "EUR", 700), ("-1.50", "EUR", -150), ("-0.05", "EUR", -5),
    ("1,234.56", "EUR", 123456), ("-1,234.56", "EUR", -123456), ("1,500", "JPY", 1500), ("-1,500", "JPY", -1500),
    ("2.5", "KWD", 2500), ("-0.005", "KWD", -5), (" -12 ", "USD", -1200),
]


def test_parse_amount_both_sides(tree):
    got = probe(tree, "parse_amount", [case[:2] for case in PARSE_CASES])
    wrong = [(case, out) for case, out in zip(PARSE_CASES, got) if out != case[2]]
    assert not wrong, f"(text, currency, expected) -> got: {wrong}"
    assert got[-1] == -325, "parse_amount without a currency still means EUR"


# ---- the branch's features, on main's API ----------------------------------------------------

def test_text_invoice_in_other_currency_and_credit(tree):
    got = probe(tree, "text_invoice")
    jpy, credit = got
    assert jpy[0] == "Invoice INV-2024-0001 (JPY)"
    assert jpy[4].split() == ["Server", "1", "1,200,000", "1,200,000"], jpy
    assert jpy[5].split()[-2:] == ["-700", "-700"], jpy
    assert jpy[-3:] == ["Net: 1,199,300", "Tax: 287,832", "Total: 1,487,132 JPY"], jpy
    assert credit[0] == "Invoice CR-2024-0001 (EUR)"
    assert credit[-3:] == ["Net: -44.90", "Tax: -7.99", "Total: -52.89 EUR"], credit


def test_html_markdown_json_reminders(tree):
    got = probe(tree, "html_markdown_json_reminders")
    html, md, doc, reminder = got
    assert "<td>-KD 1,234.567</td>" in html and "<td>-KD 1,530.863</td>" in html, html
    assert "| **Total** | | | **5,580** |" in md, md
    assert (doc["total_cents"], doc["total_text"]) == (-5289, "-52.89"), doc
    assert "Amount still open: KD 1,530.863." in reminder, reminder


def test_csv_export_currency_column(tree):
    got = probe(tree, "csv_export")
    lines, totals = got
    assert lines[0] == "number,customer,issued,currency,description,quantity,unit,net,tax"
    assert lines[1] == "INV-2024-0001,acme,2024-03-04,EUR,Widget,2,12.50,25.00,6.00"
    assert lines[3] == 'CR-2024-0002,acme,2024-03-04,JPY,Server,-1,"1,200,000","-1,200,000","-288,000"'
    assert totals == ["number,customer,currency,total", "INV-2024-0001,acme,EUR,52.89",
                      'CR-2024-0002,acme,JPY,"-1,488,000"']


def test_customer_statement(tree):
    got = probe(tree, "statement")
    rows, credit, due = got
    assert rows[0] == "Statement for acme as of 2024-03-31"
    assert rows[1].split() == ["2024-03-04", "INV-2024-0001", "52.89", "EUR"], rows
    assert rows[2].split() == ["2024-03-04", "INV-2024-0002", "14,880", "JPY"], rows
    assert rows[3].split() == ["2024-03-09", "payment", "-60.00", "EUR"], rows
    assert rows[4].split() == ["2024-03-10", "payment", "-14,880", "JPY"], rows
    assert rows[5:] == ["In credit (EUR): 7.11", "Settled (JPY)"], rows
    assert credit == "In credit (KWD): 123.456"
    assert due == "Balance due (JPY): 150,000"


def test_reports_per_currency(tree):
    got = probe(tree, "reports_per_currency")
    totals, largest, table, aging, tables = got
    assert totals == {"EUR": 315289, "JPY": -133920}
    assert largest == {"EUR": "INV-2024-0003", "JPY": "INV-2024-0002"}
    assert [r.split() for r in table] == [["EUR", "3,152.89"], ["JPY", "-133,920"]]
    assert aging["JPY"]["1-30"] == -133920 and aging["EUR"]["61-90"] == 310000
    assert tables[0] == "EUR" and tables[6] == "JPY", tables
    assert tables[4].split() == ["61-90", "3,100.00"] and tables[8].split() == ["1-30", "-133,920"], tables


def test_report_tables_take_currency(tree):
    got = probe(tree, "report_tables")
    summary, vat, aging = got
    assert summary.split() == ["2024-03", "1,860,000"]
    assert vat.split() == ["standard", "24.0%", "1,500,000", "360,000"]
    assert aging.split() == ["1-30", "1,860,000"]


def test_conversion_on_main_rules(tree):
    got = probe(tree, "conversion")
    assert got[0] == 1625
    # main: "Use money.round_half_up for every computed amount" (halves away from zero)
    assert got[1:5] == [333, -333, 163, -163], f"conversion does not round halves up: {got[1:5]}"
    assert got[5] == "-10.00 EUR = -1,625 JPY"
    assert got[6] == "123,456.78 EUR = 133,333.32 USD"
    assert got[7] == 8595
    assert got[8] == "Total in KWD: -17.586 KWD"


def test_command_line(tree):
    def cli(*args):
        # A black-box run of `billing.cli.main(args)` on the merged tree, as the sandbox user.
        r = nv.run(["python3", "-I", PROBE, tree, "--cli", *args], cwd="/tmp", env=ENV, timeout=60)
        assert r.exit == 0 and not r.timed_out, f"billing {' '.join(args)}: {r.describe()}"
        return r.stdout
    assert cli("convert", "1,000", "EUR", "JPY") == "1,000.00 EUR = 162,500 JPY\n"
    assert cli("convert", "-2.5", "KWD", "EUR") == "-2.500 KWD = -7.52 EUR\n"
    assert cli("convert", "1", "EUR", "KWD") == "1.00 EUR = 0.333 KWD\n"
    assert cli("format", "-1234.5") == "-1,234.50\n"
    path = f"/tmp/cli-{secrets.token_hex(8)}/in.csv"
    nv.write(path, "number,customer,issued,description,quantity,unit,category,currency\n"
                   "C-1,acme,2024-03-01,Rack,2,1250.00,,\n"
                   "C-1,acme,2024-03-01,Goodwill credit,1,-0.50,,\n"
                   "C-2,acme,2024-04-02,Refund,-1,100.00,,\n")
    text = cli("render", path, "C-1").splitlines()
    assert text[0] == "Invoice C-1 (EUR)"
    assert text[4].split() == ["Rack", "2", "1,250.00", "2,500.00"], text
    assert text[5].split()[-2:] == ["-0.50", "-0.50"], text
    assert text[-1] == "Total: 3,099.38 EUR", text
    assert [r.split() for r in cli("summary", path).splitlines()] == \
        [["2024-03", "3,099.38"], ["2024-04", "-124.00"]]


# ---- main's changes that git merged without a word: each must hold for the branch's code -------

def test_vat_report_per_currency_in_per_cent(tree):
    # main: tax.rate_for() is in per cent (Decimal("24")); the branch's table multiplied by 100.
    tables, data = probe(tree, "vat_per_currency")
    assert data == {"EUR": {"books": [1990, 199], "standard": [2500, 600]},
                    "JPY": {"standard": [12000, 2880]},
                    "KWD": {"books": [-8500, -850], "standard": [-1234567, -296296]}}, data
    assert [r.split() for r in tables] == [
        ["EUR"], ["books", "10.0%", "19.90", "1.99"], ["standard", "24.0%", "25.00", "6.00"],
        ["JPY"], ["standard", "24.0%", "12,000", "2,880"],
        ["KWD"], ["books", "10.0%", "-8.500", "-0.850"], ["standard", "24.0%", "-1,234.567", "-296.296"]], tables


def test_average_per_currency_rounds_half_up(tree):
    # main: every computed amount is rounded with round_half_up (halves away from zero); the
    # branch's average floored (//): 157644.5 -> 157645, -2.5 -> -3, 1000.33 -> 1000.
    got = probe(tree, "averages")
    assert got == {"EUR": 157645, "JPY": -3, "KWD": 1000}, got


def test_json_amounts_in_each_currency_major_units(tree):
    # main: JSON `amounts` are decimal strings of major units; the branch: JPY has no decimals,
    # KWD three. Compared as decimals, so "14880" and "14880.0" are the same amount.
    from decimal import Decimal, InvalidOperation
    got = probe(tree, "json_amounts")
    expected = [{"net": "44.90", "tax": "7.99", "total": "52.89"},
                {"net": "12000", "tax": "2880", "total": "14880"},
                {"net": "-1234.567", "tax": "-296.296", "total": "-1530.863"}]
    assert len(got) == len(expected), got
    for doc, want in zip(got, expected):
        assert isinstance(doc, dict) and set(want) <= set(doc), got
        for key in want:
            value = doc[key]
            assert isinstance(value, str), f"amounts.{key} is not a decimal string: {value!r}"
            try:
                ok = Decimal(value) == Decimal(want[key])
            except InvalidOperation:
                ok = False
            assert ok, f"JSON amounts in major units of the invoice's currency: {got}"


def test_statement_payments_in_their_invoice_currency(tree):
    # main: Payment.currency None is the currency of the invoice it pays (not EUR).
    rows = probe(tree, "statement_payments")
    assert rows[0] == "Statement for acme", rows
    assert [r.split() for r in rows[1:7]] == [
        ["2024-03-04", "INV-2024-0001", "52.89", "EUR"], ["2024-03-04", "INV-2024-0002", "14,880", "JPY"],
        ["2024-03-04", "INV-2024-0003", "1,530.863", "KWD"], ["2024-03-09", "payment", "-60.00", "EUR"],
        ["2024-03-10", "payment", "-14,880", "JPY"], ["2024-03-11", "payment", "-500.000", "KWD"]], rows
    assert rows[7:] == ["In credit (EUR): 7.11", "Settled (JPY)", "Balance due (KWD): 1,030.863"], rows


def test_convert_invoice_builds_its_lines_first(tree):
    # main: Invoice.lines is a tuple, fixed when the invoice is made; the branch's convert_invoice
    # appended to an empty invoice's lines. Unit prices convert with main's rounding.
    got = probe(tree, "convert_invoice")
    jpy, eur = got
    assert jpy == {"currency": "JPY", "number": "INV-2024-0001", "units": [2031, 3234], "quantities": [2, 1],
                   "total": 8594, "lines_type": "tuple", "source": ["EUR", 2]}, jpy
    assert eur == {"currency": "EUR", "number": "CR-1", "units": [371298], "quantities": [-1],
                   "total": -460410, "lines_type": "tuple", "source": ["KWD", 1]}, eur
