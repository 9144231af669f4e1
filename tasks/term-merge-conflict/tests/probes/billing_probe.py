"""The hidden tests' probe into the merged billing package (term-merge-conflict).

    python3 -I /nab/probes/billing_probe.py TREE CASE [ARGS_JSON]
    python3 -I /nab/probes/billing_probe.py TREE --cli ARGS...

TREE is a copy of main's committed tree that the test runner wrote (as the sandbox user).
The probe imports that copy, runs one CASE (a few calls of the package's API, or its own unit
tests) and prints one JSON line: {"billing_file": ..., "result": ...} or {"billing_file":
..., "error": "<traceback>"}. It runs as the sandbox user, never in the test runner: what it
prints is an observation of the code under test. It holds no assertions and no expected
values; the runner compares.

The line goes to the original standard output, kept on a descriptor of its own; the code's
own prints (and anything it writes to fd 1) go to standard error. With --cli it runs the
package's command line instead (`billing.cli.main(ARGS)`): then what the code prints on
standard output, and its exit status, are the observation (a black-box run).

Byte code: the tree's modules are imported from their sources only. Their byte code is
read from TREE.pyc, a folder the test runner wrote (checked-hash byte code it compiled from
the committed bytes) and this user cannot write, and only while it matches the source;
anything else is compiled in memory. Nothing is written, and no .pyc in the tree (in
__pycache__ or without its source) is ever read. The interpreter's own modules (the paths
on sys.path before the tree is added) keep their usual byte code.
"""
import importlib.machinery as machinery
import importlib.util
import json
import marshal
import os
import sys
import traceback


MAGIC = importlib.util.MAGIC_NUMBER + (0b11).to_bytes(4, "little")  # PEP 552, checked hash


def source_only_imports(tree):
    tree = os.path.realpath(tree)
    cache = tree + ".pyc"
    system = tuple(os.path.realpath(p) + os.sep for p in sys.path if p)

    class TreeLoader(machinery.SourceFileLoader):
        def get_code(self, fullname):
            path = self.get_filename(fullname)
            source = self.get_data(path)
            rel = os.path.relpath(os.path.realpath(path), tree)
            if not rel.startswith(".."):
                try:
                    with open(os.path.join(cache, rel + "c"), "rb") as f:
                        data = f.read()
                except OSError:
                    data = b""
                if data[:16] == MAGIC + importlib.util.source_hash(source):
                    return marshal.loads(data[16:])
            return self.source_to_code(source, path)

    def hook(path):
        if (os.path.realpath(path) + os.sep).startswith(system):
            raise ImportError("an interpreter path: the usual finder takes it")
        return machinery.FileFinder(path, (machinery.ExtensionFileLoader, machinery.EXTENSION_SUFFIXES),
                                    (TreeLoader, machinery.SOURCE_SUFFIXES))

    sys.dont_write_bytecode = True
    sys.path_hooks.insert(0, hook)
    sys.path_importer_cache.clear()


# ---- inputs the cases share ---------------------------------------------------------------

def inv(number="INV-2024-0001", customer="acme", issued=None, currency="EUR", lines=None):
    from datetime import date

    from billing.core.invoice import Invoice
    from billing.core.lines import Line
    if issued is None:
        issued = date(2024, 3, 4)
    if lines is None:
        lines = [Line("Widget", 2, 1250), Line("Manual", 1, 1990, "books")]
    return Invoice(number, customer, issued, lines, currency)


def Line(*args):
    from billing.core.lines import Line as L
    return L(*args)


# ---- the cases: each returns plain data -----------------------------------------------------

def case_main_api(args):
    import importlib.util
    import inspect

    from billing import money
    from billing.core.invoice import Invoice
    params = inspect.signature(money.format_money).parameters
    result = {
        "to_text": hasattr(money, "to_text"),
        "total": hasattr(Invoice, "total"),
        "total_cents": inv().total_cents,
        "util_dates": importlib.util.find_spec("billing.util.dates") is not None,
        "core_dates": importlib.util.find_spec("billing.core.dates") is not None,
        "currency_kind": str(params["currency"].kind) if "currency" in params else None,
        "currency_default": (params["currency"].default is inspect.Parameter.empty) if "currency" in params else None,
    }
    try:
        money.format_money(100)
        result["no_currency"] = "accepted"
    except TypeError:
        result["no_currency"] = "TypeError"
    from billing.core.tax import rate_for
    from billing.payments.ledger import Payment
    result["rate_standard"] = str(rate_for("standard"))
    result["payment_currency_default"] = repr(inspect.signature(Payment).parameters["currency"].default)
    result["lines_type"] = type(inv().lines).__name__
    return result


def case_format_money(args):
    from billing.money import format_money
    return [format_money(c, currency=cur, symbol=s) for c, cur, s in args]


def case_parse_amount(args):
    from billing.money import parse_amount
    result = [parse_amount(t, cur) for t, cur in args]
    result.append(parse_amount("-3.25"))
    return result


def case_text_invoice(args):
    from billing.core.credit import credit_note
    from billing.render.text import render_text
    jpy = inv(currency="JPY", lines=[Line("Server", 1, 1200000), Line("Goodwill credit", 1, -700)])
    return [render_text(jpy).splitlines(), render_text(credit_note(inv(), "CR-2024-0001")).splitlines()]


def case_html_markdown_json_reminders(args):
    from datetime import date

    from billing.core.credit import credit_note
    from billing.io.json_export import invoice_dict
    from billing.payments.reminders import reminder_text
    from billing.render.html import render_html
    from billing.render.markdown import render_markdown
    kwd = inv(currency="KWD", lines=[Line("Licence", 1, 1234567)])
    return [render_html(credit_note(kwd, "CR-1")), render_markdown(inv(currency="JPY", lines=[Line("Tea", 3, 1500)])),
            invoice_dict(credit_note(inv(), "CR-2")), reminder_text(kwd, [], date(2024, 4, 1))]


def case_csv_export(args):
    from billing.core.credit import credit_note
    from billing.io.csv_export import export_lines, export_totals
    big = inv(currency="JPY", lines=[Line("Server", 1, 1200000)])
    return [export_lines([inv(), credit_note(big, "CR-2024-0002")]).splitlines(),
            export_totals([inv(), credit_note(big, "CR-2024-0002")]).splitlines()]


def case_statement(args):
    from datetime import date

    from billing.payments.ledger import Payment
    from billing.render.statement import balance_line, statement
    invs = [inv(), inv("INV-2024-0002", currency="JPY", lines=[Line("Tea", 10, 1200)])]
    pays = [Payment("acme", date(2024, 3, 9), 6000, invoice="INV-2024-0001"),
            Payment("acme", date(2024, 3, 10), 14880, currency="JPY")]
    return [statement("acme", invs, pays, as_of=date(2024, 3, 31)).splitlines(),
            balance_line(-123456, "KWD"), balance_line(150000, "JPY")]


def case_reports_per_currency(args):
    from datetime import date

    from billing.core.credit import credit_note
    from billing.reports.aging import aging_by_currency, aging_tables
    from billing.reports.by_currency import currency_table, largest_by_currency, totals_by_currency
    invs = [inv(), inv("INV-2024-0002", currency="JPY", lines=[Line("Tea", 10, 1200)]),
            inv("INV-2024-0003", issued=date(2024, 1, 5), lines=[Line("Rack", 1, 250000)]),
            credit_note(inv("INV-2024-0004", currency="JPY", lines=[Line("Tea", 100, 1200)]), "CR-2024-0001")]
    return [totals_by_currency(invs), largest_by_currency(invs), currency_table(invs).splitlines(),
            aging_by_currency(invs, date(2024, 3, 20)), aging_tables(invs, date(2024, 3, 20)).splitlines()]


def case_report_tables(args):
    from datetime import date

    from billing.reports.aging import aging_table
    from billing.reports.summary import summary_table
    from billing.reports.vat import vat_table
    jpy = [inv(currency="JPY", lines=[Line("Tea", 1000, 1500)])]
    return [summary_table(jpy, currency="JPY"), vat_table(jpy, currency="JPY"),
            aging_table(jpy, date(2024, 3, 20), currency="JPY").splitlines()[1]]


def case_conversion(args):
    from billing.core.credit import credit_note
    from billing.fx import convert
    from billing.fx.convert import convert_invoice_total
    from billing.fx.quote import footer, quote
    return [convert(1000, "EUR", "JPY"), convert(100, "EUR", "KWD"), convert(-100, "EUR", "KWD"),
            convert(100, "EUR", "JPY"), convert(-100, "EUR", "JPY"),
            quote(-1000, "EUR", "JPY"), quote(12345678, "EUR", "USD"),
            convert_invoice_total(inv(), "JPY"), footer(credit_note(inv(), "CR-1"), "KWD")]


def case_vat_per_currency(args):
    from billing.core.credit import credit_note
    from billing.reports.by_currency import vat_by_currency, vat_tables
    invs = [inv(), inv("INV-2024-0002", currency="JPY", lines=[Line("Tea", 10, 1200)]),
            credit_note(inv("INV-2024-0003", currency="KWD", lines=[Line("Licence", 1, 1234567),
                                                                    Line("Handbook", 2, 4250, "books")]), "CR-1")]
    return [vat_tables(invs).splitlines(), {cur: {cat: list(v) for cat, v in cats.items()}
                                            for cur, cats in vat_by_currency(invs).items()}]


def case_averages(args):
    from datetime import date

    from billing.core.credit import credit_note
    from billing.reports.by_currency import average_by_currency
    invs = [inv(), inv("INV-2024-0003", issued=date(2024, 1, 5), lines=[Line("Rack", 1, 250000)]),
            inv("J-1", currency="JPY", lines=[Line("Tea", 1, 3, "exempt")]),
            credit_note(inv("J-2", currency="JPY", lines=[Line("Tea", 1, 8, "exempt")]), "CR-J-2"),
            inv("K-1", currency="KWD", lines=[Line("Pen", 1, 1000, "exempt")]),
            inv("K-2", currency="KWD", lines=[Line("Pen", 1, 1000, "exempt")]),
            inv("K-3", currency="KWD", lines=[Line("Pen", 1, 1001, "exempt")])]
    return average_by_currency(invs)


def case_json_amounts(args):
    from billing.core.credit import credit_note
    from billing.io.json_export import export_json
    import json
    invs = [inv(), inv("INV-2024-0002", currency="JPY", lines=[Line("Tea", 10, 1200)]),
            credit_note(inv("INV-2024-0003", currency="KWD", lines=[Line("Licence", 1, 1234567)]), "CR-1")]
    return [doc.get("amounts") for doc in json.loads(export_json(invs))]


def case_statement_payments(args):
    from datetime import date

    from billing.payments.ledger import Payment
    from billing.render.statement import statement
    invs = [inv(), inv("INV-2024-0002", currency="JPY", lines=[Line("Tea", 10, 1200)]),
            inv("INV-2024-0003", currency="KWD", lines=[Line("Licence", 1, 1234567)]),
            inv("INV-2024-0004", customer="globex", currency="USD")]
    pays = [Payment("acme", date(2024, 3, 9), 6000, invoice="INV-2024-0001"),
            Payment("acme", date(2024, 3, 10), 14880, invoice="INV-2024-0002"),
            Payment("acme", date(2024, 3, 11), 500000, currency="KWD"),
            Payment("globex", date(2024, 3, 11), 5289, invoice="INV-2024-0004")]
    return statement("acme", invs, pays).splitlines()


def case_convert_invoice(args):
    from billing.core.credit import credit_note
    from billing.fx.convert import convert_invoice
    out = []
    for src, dst in ((inv(), "JPY"), (credit_note(inv(currency="KWD", lines=[Line("Licence", 1, 1234567)]), "CR-1"), "EUR")):
        got = convert_invoice(src, dst)
        out.append({"currency": got.currency, "number": got.number, "units": [l.unit_cents for l in got.lines],
                    "quantities": [l.quantity for l in got.lines], "total": got.total_cents,
                    "lines_type": type(got.lines).__name__, "source": [src.currency, len(src.lines)]})
    return out


def case_unit_tests(args):
    """The project's own unit tests (`unittest discover -s tests -t .` in the tree): the id of
    every test and its outcome."""
    import unittest

    outcomes = {}

    class Recorder(unittest.TestResult):
        def addSuccess(self, test):
            super().addSuccess(test)
            outcomes[test.id()] = "ok"

        def addFailure(self, test, err):
            super().addFailure(test, err)
            outcomes[test.id()] = "failed"

        def addError(self, test, err):
            super().addError(test, err)
            outcomes[test.id()] = "error"

        def addSkip(self, test, reason):
            super().addSkip(test, reason)
            outcomes[test.id()] = "skipped"

        def addExpectedFailure(self, test, err):
            super().addExpectedFailure(test, err)
            outcomes[test.id()] = "expected failure"

        def addUnexpectedSuccess(self, test):
            super().addUnexpectedSuccess(test)
            outcomes[test.id()] = "unexpected success"

    suite = unittest.TestLoader().discover("tests", top_level_dir=".")
    result = Recorder()
    suite.run(result)
    return {
        "outcomes": outcomes,
        "ran": result.testsRun,
        "successful": result.wasSuccessful(),
        "problems": [(t.id(), tb[-2000:]) for t, tb in (result.failures + result.errors)][:20],
    }


def cli(tree, argv):
    source_only_imports(tree)
    sys.path.insert(0, tree)
    from billing.cli import main as billing_main
    sys.exit(billing_main(argv))


def main():
    if len(sys.argv) > 2 and sys.argv[2] == "--cli":
        cli(sys.argv[1], sys.argv[3:])
        return
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    tree, case = sys.argv[1], sys.argv[2]
    args = json.loads(sys.argv[3]) if len(sys.argv) > 3 else None
    source_only_imports(tree)
    sys.path.insert(0, tree)
    os.chdir(tree)
    reply = {"billing_file": None}
    try:
        import billing
        reply["billing_file"] = os.path.abspath(billing.__file__)
        reply["result"] = globals()["case_" + case](args)
    except BaseException:  # noqa: B036 - whatever the code under test raised is the observation
        reply["error"] = traceback.format_exc()[-4000:]
    try:
        line = json.dumps(reply)
    except (TypeError, ValueError) as e:
        line = json.dumps({"billing_file": reply["billing_file"], "error": f"not plain data: {e}"})
    out.write(line + "\n")
    out.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
