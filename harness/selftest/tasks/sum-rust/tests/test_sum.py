"""The runner's checks (the verifier user): the probe, run as the sandbox user through the
broker, reports the workspace's sums; the expected sums are computed here."""
import json

import nabverify as nv

INPUTS = [[1, 2, 3], [40, 2], [7], [-5, 5, 11], [1000000, 2000000, 3]]


def observe():
    r = nv.run(["/tmp/probe-target/debug/probe"], stdin="".join(",".join(map(str, v)) + "\n" for v in INPUTS), timeout=30)
    assert r.ok, r.describe()
    return [json.loads(line) for line in r.stdout.splitlines()]


def test_every_sum_is_right():
    assert observe() == [{"value": sum(v)} for v in INPUTS]


def test_one_answer_per_input():
    assert len(observe()) == len(INPUTS)
