"""Hidden check of the incident facts (values pinned from generate.py)."""
import re

ANSWER = "/workspace/ANSWER.txt"
EXPECTED = {
    "first_error": "payments.log:16641",
    "request_id": "r-b6d425a0",
    "failed_requests": "162",
    "root_cause": "payments.log.1.gz:9248",
    "rollout": "cfg-rollout-7781",
}


def answers():
    out = {}
    with open(ANSWER, encoding="utf-8") as f:
        for line in f:
            line = line.strip().strip("`")
            m = re.fullmatch(r"([a-z_]+)\s*:\s*(.+)", line)
            if m:
                out.setdefault(m.group(1), m.group(2).strip())
    return out


def test_all_keys_present():
    assert set(EXPECTED) <= set(answers()), f"missing keys: {set(EXPECTED) - set(answers())}"


def test_first_error():
    a = answers()
    assert a.get("first_error", "").removeprefix("logs/") == EXPECTED["first_error"]
    assert a.get("request_id") == EXPECTED["request_id"]


def test_failed_requests():
    assert answers().get("failed_requests") == EXPECTED["failed_requests"]


def test_root_cause():
    a = answers()
    assert a.get("root_cause", "").removeprefix("logs/") == EXPECTED["root_cause"]
    assert a.get("rollout") == EXPECTED["rollout"]
