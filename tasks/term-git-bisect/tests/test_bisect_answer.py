"""Hidden check of the bisect answer file's form. Whether it names the right commit is
checked on the host (expected/FIRST_BAD_COMMIT, which never enters a container)."""
import re

ANSWER = "/workspace/FIRST_BAD_COMMIT"


def read_answer():
    with open(ANSWER, encoding="utf-8") as f:
        return f.read()


def test_answer_is_one_full_hash():
    lines = [line.strip() for line in read_answer().splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one line, got {lines!r}"
    assert re.fullmatch(r"[0-9a-f]{40}", lines[0]), f"not a full commit hash: {lines[0]!r}"
