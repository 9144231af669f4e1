"""Normalising user text before it is stored or shown."""
import re
import unicodedata

_SPACE_RUN = re.compile(r"\s+")


def normalize(text):
    """NFC, with every run of whitespace (newlines included) collapsed to one space."""
    return _SPACE_RUN.sub(" ", unicodedata.normalize("NFC", text)).strip()


def strip_controls(text):
    return "".join(c for c in text if unicodedata.category(c) != "Cc" or c in "\n\t")
