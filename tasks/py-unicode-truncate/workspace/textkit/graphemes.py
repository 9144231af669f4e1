"""User-perceived characters (grapheme clusters), a pragmatic subset of UAX #29.

Handled: CR LF; a base character with its combining marks; variation selectors; emoji skin
tone modifiers; tag sequences (subdivision flags); emoji joined with ZERO WIDTH JOINER; pairs
of regional indicators (country flags). Good enough for chat and notification text.
"""
import unicodedata

ZWJ = "\u200d"


def _is_extend(ch):
    o = ord(ch)
    return (
        unicodedata.category(ch) in ("Mn", "Me", "Mc")
        or 0xFE00 <= o <= 0xFE0F          # variation selectors
        or 0x1F3FB <= o <= 0x1F3FF        # skin tone modifiers
        or 0xE0020 <= o <= 0xE007F        # tags
    )


def _is_regional_indicator(ch):
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def _is_pictographic(ch):
    o = ord(ch)
    return 0x1F000 <= o <= 0x1FAFF or 0x2600 <= o <= 0x27BF or 0x2300 <= o <= 0x23FF


def iter_graphemes(text):
    """Yield the grapheme clusters of `text` in order; ''.join() of them is `text`."""
    i, n = 0, len(text)
    while i < n:
        start = i
        ch = text[i]
        i += 1
        if ch == "\r" and i < n and text[i] == "\n":
            yield text[start:i + 1]
            i += 1
            continue
        if ch in "\r\n":
            yield ch
            continue
        if _is_regional_indicator(ch) and i < n and _is_regional_indicator(text[i]):
            i += 1
        while i < n:
            nxt = text[i]
            if _is_extend(nxt):
                i += 1
            elif nxt == ZWJ:
                i += 1
                if i < n and _is_pictographic(text[i]):
                    i += 1
            else:
                break
        yield text[start:i]


def graphemes(text):
    return list(iter_graphemes(text))


def grapheme_len(text):
    return sum(1 for _ in iter_graphemes(text))
