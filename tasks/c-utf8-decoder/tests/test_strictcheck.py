"""Hidden tests of the strict UTF-8 decoder (RFC 3629: shortest form only, no surrogates,
nothing above U+10FFFF, continuation bytes 10xxxxxx, never a read past len). The library runs
in the probe (conftest.py), with ASan/UBSan; every expected value is here."""

import array

NOT_FOUND = (1 << 64) - 1          # (size_t)-1
REPLACEMENT = "\ufffd".encode()


def hexs(b):
    return " ".join("%02X" % x for x in b)


def test_valid_boundaries(probe):
    ok = [(b"\x00", 0x0), (b"\x7f", 0x7F), (b"\xc2\x80", 0x80), (b"\xdf\xbf", 0x7FF),
          (b"\xe0\xa0\x80", 0x800), (b"\xed\x9f\xbf", 0xD7FF), (b"\xee\x80\x80", 0xE000),
          (b"\xef\xbf\xbd", 0xFFFD), (b"\xef\xbf\xbf", 0xFFFF), (b"\xf0\x90\x80\x80", 0x10000),
          (b"\xf3\xbf\xbf\xbf", 0xFFFFF), (b"\xf4\x8f\xbf\xbf", 0x10FFFF)]
    answers = probe.ask([("decode", b) for b, _ in ok])
    for (b, cp), a in zip(ok, answers):
        assert (a["n"], a["cp"]) == (len(b), cp), "%s: %d bytes, U+%04X; want %d, U+%04X" % (
            hexs(b), a["n"], a["cp"], len(b), cp)


def check_rejects(probe, cases, control):
    """Each of `cases` rejected; `control` (bytes, code point), a valid neighbour, decoded, so
    the answers must tell the two apart."""
    answers = probe.ask([("decode", control[0])] + [("decode", b) for b in cases])
    good, cp = control
    assert (answers[0]["n"], answers[0]["cp"]) == (len(good), cp), "%s: %d bytes, U+%04X; want %d, U+%04X" % (
        hexs(good), answers[0]["n"], answers[0]["cp"], len(good), cp)
    for b, a in zip(cases, answers[1:]):
        assert a["n"] == -1, "accepted: %s -> %d bytes, U+%04X" % (hexs(b), a["n"], a["cp"])


def test_overlong_forms_rejected(probe):
    check_rejects(probe, [b"\xc0\x80", b"\xc0\xaf", b"\xc1\xbf", b"\xe0\x80\x80", b"\xe0\x80\xaf",
                          b"\xe0\x9f\xbf", b"\xf0\x80\x80\x80", b"\xf0\x80\x80\xaf", b"\xf0\x8f\xbf\xbf"],
                  (b"\xe0\xa0\x80", 0x800))


def test_surrogates_rejected(probe):
    check_rejects(probe, [b"\xed\xa0\x80", b"\xed\xad\xbf", b"\xed\xb0\x80", b"\xed\xbf\xbf"],
                  (b"\xed\x9f\xbf", 0xD7FF))


def test_beyond_max_rejected(probe):
    check_rejects(probe, [b"\xf4\x90\x80\x80", b"\xf7\xbf\xbf\xbf", b"\xf5\x80\x80\x80",
                          b"\xf8\x88\x80\x80\x80", b"\xfe", b"\xff"],
                  (b"\xf0\x90\x80\x80", 0x10000))


def test_bad_continuations_rejected(probe):
    check_rejects(probe, [b"\x80", b"\xbf", b"\xc3\x28", b"\xe2\x28\xa1", b"\xe2\x82\x28",
                          b"\xf0\x28\x8c\xbc", b"\xf0\x90\x28\xbc", b"\xf0\x90\x8c\xc0", b"\xc3\xc3"],
                  (b"\xc3\xa9", 0xE9))


def test_truncated_sequences_rejected_without_overread(probe):
    cut = [b"\xc3", b"\xe2\x82", b"\xe2", b"\xf0\x9f\x98", b"\xf0\x9f"]
    a = probe.ask([("decode", b) for b in cut] + [
        ("decode", b""),
        # A valid sequence cut by len inside a longer buffer is still cut.
        ("decodecut", b"\xe2\x82\xac", 2),
        ("decodecut", b"\xe2\x82\xac", 3),
    ])
    for b, ans in zip(cut, a):
        assert ans["n"] == -1, "accepted: %s -> %d bytes, U+%04X" % (hexs(b), ans["n"], ans["cp"])
    assert a[5]["n"] == 0, "len 0 returned %d, want 0" % a[5]["n"]
    assert a[6]["n"] == -1, "E2 82 AC cut at 2 bytes returned %d, want -1" % a[6]["n"]
    assert (a[7]["n"], a[7]["cp"]) == (3, 0x20AC), "E2 82 AC: %r, want 3, U+20AC" % a[7]


def test_validate_reports_first_error_offset(probe):
    cases = [(b"plain", NOT_FOUND), (b"caf\xc3\xa9", NOT_FOUND), (b"..\xc0\xaf..", 2),
             (b"ab\xed\xa0\x80", 2), (b"\xf0\x9f\x98\x80x\xf4\x90\x80\x80", 5), (b"ok\xe2\x82", 2)]
    a = probe.ask([("validate", b) for b, _ in cases] + [
        ("count", b"\xc0\x80"),
        ("count", b"a\xc3\xa9\xf4\x8f\xbf\xbf"),
    ])
    for (b, at), ans in zip(cases, a):
        assert ans["value"] == at, "utf8_validate(%s) = %d, want %d" % (hexs(b), ans["value"], at)
    assert a[6]["value"] == NOT_FOUND, "utf8_count(C0 80) = %d, want (size_t)-1" % a[6]["value"]
    assert a[7]["value"] == 3, "utf8_count(a é U+10FFFF) = %d, want 3" % a[7]["value"]


NOT_CALLED_DEC, NOT_CALLED_BACK = -2147483649, -1


def expected_round_trip():
    """lens, decs, backs for U+0000..U+10FFFF, if right: encode gives each scalar value's
    UTF-8 length (0 for a surrogate), decode gives the same length back and the value."""
    spans = [(0, 0x80, 1), (0x80, 0x800, 2), (0x800, 0xD800, 3), (0xD800, 0xE000, 0),
             (0xE000, 0x10000, 3), (0x10000, 0x110000, 4)]
    lens, decs, backs = array.array("q"), array.array("q"), array.array("q")
    for lo, hi, n in spans:
        lens.extend(array.array("q", [n]) * (hi - lo))
        decs.extend(array.array("q", [n if n else NOT_CALLED_DEC]) * (hi - lo))
        backs.extend(array.array("q", range(lo, hi)) if n else array.array("q", [NOT_CALLED_BACK]) * (hi - lo))
    return lens, decs, backs


def expand(runs, what):
    """The sequence the probe's runs [first, step, count] stand for."""
    out = array.array("q")
    assert isinstance(runs, list), "%s: not a list of runs" % what
    for r in runs:
        assert (isinstance(r, list) and len(r) == 3 and all(type(x) is int for x in r) and r[1] in (0, 1)
                and 1 <= r[2] <= 0x110000 - len(out)), "%s: not a run: %.100r" % (what, r)
        first, step, count = r
        out.extend(array.array("q", range(first, first + count)) if step else array.array("q", [first]) * count)
    return out


def first_difference(got, want):
    if len(got) != len(want):
        return min(len(got), len(want))
    return next(i for i in range(len(got)) if got[i] != want[i])


def test_every_scalar_round_trips(probe):
    a = probe.ask([("roundtrip", 0, 0x10FFFF), ("encode", 0x110000)], timeout=120)
    lens, decs, backs = expected_round_trip()
    got = {k: expand(a[0][k], k) for k in ("lens", "decs", "backs")}
    if got["lens"] != lens:
        cp = first_difference(got["lens"], lens)
        raise AssertionError("utf8_encode(U+%04X) returned %s, want %d" % (
            cp, got["lens"][cp] if cp < len(got["lens"]) else "nothing", lens[cp]))
    if got["decs"] != decs or got["backs"] != backs:
        cp = min(first_difference(got["decs"], decs) if got["decs"] != decs else len(decs),
                 first_difference(got["backs"], backs) if got["backs"] != backs else len(backs))
        raise AssertionError("U+%04X does not decode back to itself: utf8_decode returned %s, value %s" % (
            cp, got["decs"][cp] if cp < len(got["decs"]) else "nothing",
            hex(got["backs"][cp]) if cp < len(got["backs"]) else "nothing"))
    assert a[1]["n"] == 0, "utf8_encode(0x110000) returned %d, want 0" % a[1]["n"]


def test_sanitize_replaces_each_bad_byte(probe):
    r = REPLACEMENT
    cases = [(b"A\xe2\x82", b"A" + r + r), (b"\xc0\xaf", r + r), (b"x\xed\xa0\x80y", b"x" + r * 3 + b"y"),
             (b"\xf4\x90\x80\x80", r * 4), (b"\xe2\x28\xa1", r + b"(" + r), (b"ok \xe2\x82\xac", b"ok \xe2\x82\xac")]
    answers = probe.ask([("sanitize", s) for s, _ in cases])
    for (s, want), a in zip(cases, answers):
        got = bytes.fromhex(a["out"])
        assert a["n"] == len(want) and got == want, "utf8_sanitize(%s): %d bytes %s, want %s" % (
            hexs(s), a["n"], hexs(got), hexs(want))


def test_paths_with_disguised_dots_rejected(probe):
    PATH_OK, PATH_BAD_UTF8, PATH_TRAVERSAL = 0, 1, 2
    cases = [(b"..\xc0\xaf..\xc0\xafetc/passwd", PATH_BAD_UTF8), (b"a/\xe0\x80\xae\xe0\x80\xae/b", PATH_BAD_UTF8),
             (b"a/../b", PATH_TRAVERSAL), (b"photos/\xf0\x9f\x93\xb7.jpg", PATH_OK)]
    answers = probe.ask([("path", p) for p, _ in cases])
    for (p, want), a in zip(cases, answers):
        assert a["verdict"] == want, "path_check(%r) = %d, want %d" % (p, a["verdict"], want)
