"""Terminal display width: wide (East Asian) and emoji clusters take two columns."""
import unicodedata

from .graphemes import iter_graphemes


def cluster_width(cluster):
    base = cluster[0]
    if unicodedata.combining(base) or unicodedata.category(base) in ("Cc", "Cf"):
        return 0
    if len(cluster) > 1 and any(0x1F000 <= ord(c) <= 0x1FAFF for c in cluster):
        return 2
    return 2 if unicodedata.east_asian_width(base) in ("W", "F") else 1


def display_width(text):
    return sum(cluster_width(c) for c in iter_graphemes(text))


def pad_right(text, columns):
    return text + " " * max(0, columns - display_width(text))
