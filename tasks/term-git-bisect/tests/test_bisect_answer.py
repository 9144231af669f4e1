"""Hidden check of the bisect answer file."""
import re

ANSWER = "/workspace/FIRST_BAD_COMMIT"
# "colsum: allow comment lines in the input" (see generate.sh): its numeric-cell filter
# drops negative amounts. The broken-include commits before it must be skipped, not blamed.
FIRST_BAD = "8997df2600fab6e4584a4c1b4cfe76d580d17cb9"


def read_answer():
    with open(ANSWER, encoding="utf-8") as f:
        return f.read()


def test_answer_is_one_full_hash():
    lines = [line.strip() for line in read_answer().splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one line, got {lines!r}"
    assert re.fullmatch(r"[0-9a-f]{40}", lines[0]), f"not a full commit hash: {lines[0]!r}"


def test_answer_is_first_bad_commit():
    assert read_answer().strip() == FIRST_BAD
