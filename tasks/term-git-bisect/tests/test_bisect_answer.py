"""Hidden checks of the bisect answer file's form, and that the bundle was left alone.
Whether the answer names the right commit is checked on the host
(expected/FIRST_BAD_COMMIT, which never enters a container). They run as the verifier user,
which cannot read the workspace: both files are read through the broker, as the sandbox
user, and only as regular files (not links)."""
import hashlib
import re

import nabverify as nv

ANSWER = "/workspace/FIRST_BAD_COMMIT"
BUNDLE = "/workspace/textkit.bundle"
# sha256 of workspace/textkit.bundle as generate.sh builds it.
BUNDLE_SHA256 = "ec559ebf9fe6b64942c7c34a4e11fb509187cb0b7c3712e8e985d0dd3d783dd0"


def read(path):
    data = nv.read(path)
    assert data is not None, f"{path} is missing or not a regular file"
    return data


def test_answer_is_one_full_hash():
    lines = [line.strip() for line in read(ANSWER).decode("utf-8").splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one line, got {lines!r}"
    assert re.fullmatch(r"[0-9a-f]{40}", lines[0]), f"not a full commit hash: {lines[0]!r}"


def test_bundle_is_left_as_it_was():
    digest = hashlib.sha256(read(BUNDLE)).hexdigest()
    assert digest == BUNDLE_SHA256, "textkit.bundle was changed; the task is an investigation only"
