"""Turns libtest's plain output into one JUnit report.

`list.txt` holds `cargo test -- --list` (`module::name: test` lines) and `run.txt` the run
(`test module::name ... ok|FAILED|ignored`, then the `---- module::name stdout ----`
sections of the failures). Every listed test is a test case (classname: its module, the
hidden test file; name: the rest): passed only when the run shows it `ok` exactly once; a
listed test without a result failed. Exits 1 when any test did not pass.
"""

import re
import sys
from xml.sax.saxutils import escape, quoteattr

RESULT = re.compile(r"^test (\S+) \.\.\. (ok|FAILED|ignored)$")
LISTED = re.compile(r"^(\S+): test$")
SECTION = re.compile(r"^---- (\S+) stdout ----$")
CAP = 4000


def read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def cases(folder):
    listed = [m.group(1) for m in map(LISTED.match, read(f"{folder}/list.txt").splitlines()) if m]
    results = {}
    details = {}
    current = None
    for line in read(f"{folder}/run.txt").splitlines():
        m = RESULT.match(line)
        if m:
            results.setdefault(m.group(1), []).append(m.group(2))
            continue
        m = SECTION.match(line)
        if m:
            current = m.group(1)
            details[current] = []
            continue
        if line in ("failures:", "successes:") or line.startswith("test result:"):
            current = None
        elif current is not None:
            details[current].append(line)
    err = read(f"{folder}/run.err")
    out = []
    for test in listed:
        got = results.get(test, [])
        if got == ["ok"]:
            failure = None
        elif not got:
            failure = "no result\n" + err[-CAP:]
        elif len(got) > 1:
            failure = "reported %d times: %s" % (len(got), ", ".join(got))
        else:
            failure = "\n".join(details.get(test, [])) or got[0]
        module, _, name = test.partition("::")
        out.append((module, name or module, failure))
    if not listed:
        out.append(("nab_hidden", "build_or_list", "no tests listed\n" + read(f"{folder}/list.err")[-CAP:]))
    return out


def main():
    folder, out = sys.argv[1], sys.argv[2]
    suites = {}
    failed = 0
    for module, name, failure in cases(folder):
        suites.setdefault(module, []).append((name, failure))
    body = []
    for module, tests in sorted(suites.items()):
        bad = sum(1 for _, f in tests if f is not None)
        failed += bad
        parts = []
        for name, failure in tests:
            if failure is None:
                parts.append("<testcase classname=%s name=%s/>" % (quoteattr(module), quoteattr(name)))
            else:
                text = failure[-CAP:] or "failed"
                parts.append(
                    "<testcase classname=%s name=%s><failure message=%s>%s</failure></testcase>"
                    % (quoteattr(module), quoteattr(name), quoteattr(text.splitlines()[0][:200]), escape(text))
                )
        body.append(
            '<testsuite name=%s tests="%d" failures="%d">%s</testsuite>'
            % (quoteattr(module), len(tests), bad, "".join(parts))
        )
    with open(out, "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="utf-8"?>\n<testsuites>%s</testsuites>\n' % "".join(body))
    sys.exit(1 if failed else 0)


main()
