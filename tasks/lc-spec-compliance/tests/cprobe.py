"""The runner's side of a C probe (tests/probes/, see probe_io.h there).

The probe is built with the workspace's code and run as the sandbox user, through the
broker; it reports what the code returned and wrote, one JSON object per request. Every
assertion is made here, in the runner, with expected values that never leave this process.

`ask()` accepts a probe run only as a whole: in time, no sanitizer report on its standard
error (ASan/UBSan findings are observations too, and the first thing checked), exit 0 with
no signal, output under the cap, exactly one well-formed answer per request, in order,
then {"done": N}. The values in the answers are then checked by the tests, so neither a
silenced sanitizer nor a clean exit passes anything alone.
"""

import json
import re

import nabverify as nv

# ASan, LSan and UBSan headlines ("==12==ERROR: AddressSanitizer: ...", "SUMMARY:
# UndefinedBehaviorSanitizer: ...", "x.c:3:5: runtime error: ...").
SANITIZER = re.compile(r"Sanitizer|runtime error:")
MAX_OUTPUT = 64 << 20


def build(out, probe_c, sources, quote_dir, flags, timeout=180.0):
    """Compiles the probe with the workspace's sources, as the sandbox user."""
    argv = ["gcc", *flags, "-iquote", quote_dir, "-o", out, probe_c, *sources]
    r = nv.run(argv, timeout=timeout)
    assert r.ok, "building the probe with the workspace's code failed:\n" + r.describe()
    return out


WORD = re.compile(r"\S+")
_words = set()


def token(v):
    t = type(v)
    if t is int:
        return str(v)
    if t is bytes or t is bytearray:
        return v.hex() if v else "-"
    if t is bool:
        return "1" if v else "0"
    s = str(v)
    if s not in _words:
        assert WORD.fullmatch(s), "a request token must be a word: %r" % s
        _words.add(s)
    return s


def sanitizer_findings(stderr):
    """The sanitizer lines of a probe's standard error (empty when none reported)."""
    return [line for line in stderr.splitlines() if SANITIZER.search(line)]


class Probe:
    def __init__(self, path, env=None):
        self.path = path
        self.env = dict(env or {})

    def ask(self, requests, timeout=60.0):
        """Sends every request (a tuple: op, then arguments; or a line already formatted) to
        one run of the probe and returns the answers (dicts), one per request, after checking
        the run as a whole."""
        lines = [r if type(r) is str else " ".join(token(t) for t in r) for r in requests]
        assert all("\n" not in x for x in lines), "a request is one line"
        requests = [x.split(" ", 1)[0] for x in lines]
        text = "\n".join(lines) + "\n"
        r = nv.run([self.path], stdin=text, env=self.env, timeout=timeout, max_output=MAX_OUTPUT)
        assert not r.timed_out, "the probe did not finish within %.0f s:\n%s" % (timeout, r.stderr[-3000:])
        found = sanitizer_findings(r.stderr)
        assert not found, "a sanitizer reported:\n" + r.stderr[-6000:]
        assert r.signal is None and r.exit == 0, "the probe did not end cleanly: " + r.describe()
        assert r.stdout_cut == 0, "the probe wrote more than %d bytes" % MAX_OUTPUT
        lines = r.stdout_bytes.split(b"\n")
        assert lines[-1] == b"", "the probe's output does not end with a newline"
        lines = lines[:-1]
        assert len(lines) == len(requests) + 1, (
            "%d requests, %d answer lines (the probe stopped early or something else wrote "
            "into its answers)" % (len(requests), len(lines)))
        # One parse for all the lines: as many values as lines, each an object answering its
        # request in turn, then the done line.
        try:
            answers = json.loads(b"[" + b",".join(lines) + b"]")
        except ValueError as e:
            raise AssertionError("the probe's answers are not one JSON object per line: %s" % e) from None
        assert len(answers) == len(lines), "the probe's answers are not one JSON object per line"
        for op, a, line in zip(requests, answers, lines):
            if not (type(a) is dict and a.get("op") == op):
                raise AssertionError("the answer to %s is out of turn: %.200r" % (op, line))
        assert answers.pop() == {"done": len(requests)}, "the probe's last line: %.200r" % lines[-1]
        return answers

    def one(self, *request, timeout=60.0):
        return self.ask([request], timeout)[0]
