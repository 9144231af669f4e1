"""Hidden checks of grapheme-safe truncation. textkit runs in the Python probe as the sandbox
user (conftest.py); every expected value and the reference segmentation live here."""
import unicodedata

import pytest

import nabverify
import textkit
import textkit.columns
import textkit.preview


def _text(value):
    # The code under test answers with data: a str, never an object of its own that
    # could decide how it compares.
    assert type(value) is str, f"expected a str, got {type(value).__name__}: {value!r}"
    return value


def truncate(*args):
    return _text(textkit.truncate(*args))


def truncate_utf8(*args):
    return _text(textkit.truncate_utf8(*args))


def fit(*args):
    return _text(textkit.columns.fit(*args))


def each(fn, text, limits):
    """fn(text, limit) for every limit, asked of the probe in one request (map() runs there,
    over the workspace's function); each result must be a str."""
    builtins = nabverify.python().import_module("builtins")
    got = builtins.list(builtins.map(fn, [text] * len(limits), list(limits)))
    assert type(got) is list and len(got) == len(limits)
    return [_text(g) for g in got]


def notification(*args):
    n = textkit.preview.notification(*args)
    assert type(n) is dict, f"notification() gave a {type(n).__name__}"
    return {k: _text(v) for k, v in n.items()}


E = "\u2026"
FAMILY = "\U0001F468\u200d\U0001F469\u200d\U0001F467"
THUMB = "\U0001F44D\U0001F3FD"
DE, ES, FR = "\U0001F1E9\U0001F1EA", "\U0001F1EA\U0001F1F8", "\U0001F1EB\U0001F1F7"
SCOTLAND = "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"
HEART = "\u2764\ufe0f"


# An independent reference segmentation for the properties below (same rules as the README).
def ref_clusters(text):
    def extend(c):
        o = ord(c)
        return (unicodedata.category(c) in ("Mn", "Me", "Mc") or 0xFE00 <= o <= 0xFE0F
                or 0x1F3FB <= o <= 0x1F3FF or 0xE0020 <= o <= 0xE007F)

    def ri(c):
        return 0x1F1E6 <= ord(c) <= 0x1F1FF

    def pict(c):
        o = ord(c)
        return 0x1F000 <= o <= 0x1FAFF or 0x2600 <= o <= 0x27BF or 0x2300 <= o <= 0x23FF

    out, i, n = [], 0, len(text)
    while i < n:
        s = i
        i += 1
        if text[s] == "\r" and i < n and text[i] == "\n":
            i += 1
        elif text[s] not in "\r\n":
            if ri(text[s]) and i < n and ri(text[i]):
                i += 1
            while i < n:
                if extend(text[i]):
                    i += 1
                elif text[i] == "\u200d":
                    i += 1
                    if i < n and pict(text[i]):
                        i += 1
                else:
                    break
        out.append(text[s:i])
    return out


CORPUS = [
    "plain ascii text that is long enough",
    "Cafe\u0301 cre\u0300me bru\u0302le\u0301e",
    f"We won! {DE}{ES}{FR} party",
    f"hi {FAMILY} there {FAMILY}{FAMILY}",
    f"{THUMB}{THUMB} great {HEART} {SCOTLAND} done",
    "line one\r\nline two\r\n\r\nend",
    "\u4e2d\u6587\u6587\u672c\u5f88\u957f\u7684\u53e5\u5b50",
    "a\u0308\u0301\u0323 stacked marks o\u0308",
    "\u0915\u094d\u0937\u093f \u0928\u092e\u0938\u094d\u0924\u0947",
]


@pytest.mark.parametrize("text,limit,want", [
    ("Cafe\u0301 au lait", 5, "Cafe\u0301" + E),
    ("Cafe\u0301", 4, "Cafe\u0301"),
    (f"We won! {DE}{ES}", 10, f"We won! {DE}{ES}"),
    (f"We won! {DE}{ES}{FR}", 10, f"We won! {DE}" + E),
    (f"hi {FAMILY} there", 5, f"hi {FAMILY}" + E),
    (f"{THUMB}{THUMB}{THUMB}", 2, THUMB + E),
    (f"{THUMB}{THUMB}", 2, f"{THUMB}{THUMB}"),
    (f"go {SCOTLAND}!", 5, f"go {SCOTLAND}!"),
    (f"go {SCOTLAND}!!", 5, f"go {SCOTLAND}" + E),
    ("ab\r\ncd", 3, "ab\r\n"[:2] + E),
    ("ab\r\ncdef", 4, "ab\r\n" + E),
    ("hello world", 8, "hello w" + E),
    ("hello", 5, "hello"),
    ("", 1, ""),
    # The workspace's rules, not full UAX #29: a virama does not join the next consonant.
    ("\u0915\u094d\u0937\u093f", 2, "\u0915\u094d\u0937\u093f"),
    ("\u0915\u094d\u0937\u093f!", 2, "\u0915\u094d" + E),
    ("\u0928\u092e\u0938\u094d\u0924\u0947 ji", 4, "\u0928\u092e\u0938\u094d" + E),
])
def test_truncate_keeps_whole_characters(text, limit, want):
    assert truncate(text, limit) == want


def test_custom_ellipsis_counts_toward_the_limit():
    assert truncate(f"{FAMILY}{FAMILY}{FAMILY}{FAMILY}{FAMILY}", 4, "...") == FAMILY + "..."
    assert truncate("Cafe\u0301s and more", 8, " [+]") == "Cafe\u0301 [+]"
    assert truncate("abc", 3, "...") == "abc"
    with pytest.raises(ValueError):
        truncate("abcdef", 2, "...")


@pytest.mark.parametrize("text", CORPUS)
def test_truncate_properties(text):
    clusters = ref_clusters(text)
    limits = range(1, len(clusters) + 2)
    for limit, got in zip(limits, each(textkit.truncate, text, limits)):
        if len(clusters) <= limit:
            assert got == text
            continue
        assert got.endswith(E)
        kept = got[: -len(E)]
        assert kept == "".join(clusters[: limit - 1]), (text, limit)


@pytest.mark.parametrize("text,max_bytes,want", [
    ("Jose\u0301", 5, "Jos"),
    ("Jose\u0301", 6, "Jose\u0301"),
    (f"ok {THUMB}", 10, "ok "),
    (f"ok {THUMB}", 11, f"ok {THUMB}"),
    (f"{DE}{FR}", 12, DE),
    (f"{DE}{FR}", 7, ""),
    (f"{FAMILY}x", 18, FAMILY),
    (f"{FAMILY}x", 17, ""),
    ("\u00fcber", 1, ""),
    ("abc", 0, ""),
    ("abc", 3, "abc"),
    ("\u0915\u094d\u0937\u093f", 6, "\u0915\u094d"),
    ("\u0915\u094d\u0937\u093f", 11, "\u0915\u094d"),
])
def test_truncate_utf8_keeps_whole_characters(text, max_bytes, want):
    assert truncate_utf8(text, max_bytes) == want


@pytest.mark.parametrize("text", CORPUS)
def test_truncate_utf8_properties(text):
    clusters = ref_clusters(text)
    total = len(text.encode("utf-8"))
    limits = range(0, total + 2)
    for max_bytes, got in zip(limits, each(textkit.truncate_utf8, text, limits)):
        assert len(got.encode("utf-8")) <= max_bytes
        k = len(ref_clusters(got)) if got else 0
        assert got == "".join(clusters[:k]), (text, max_bytes)
        if k < len(clusters):
            assert len("".join(clusters[: k + 1]).encode("utf-8")) > max_bytes


def test_negative_byte_limit_is_refused():
    with pytest.raises(ValueError):
        truncate_utf8("abc", -1)


def test_callers_get_whole_characters():
    n = notification("Ren\u00e9e " + FAMILY * 40, "Look " + THUMB * 200)
    assert n["title"] == "Ren\u00e9e " + FAMILY * 33 + E
    assert n["body"].startswith("Look " + THUMB)
    assert len(n["body"].encode("utf-8")) <= 178
    assert n["body"] == "Look " + THUMB * 21
    assert fit("city", "Sa\u0303o Paulo " + DE * 10) == "Sa\u0303o Paulo " + DE * 4
