"""A pytest plugin nab loads into a hidden test runner that is to stop at its first real
failure (`nab validate`'s checks that must fail: PYTEST_ADDOPTS carries `-p
nab_canaries_first` and `--maxfail` one above the number of planted canaries).

It runs the canaries (NAB_CANARIES: their test names, comma-separated) before every other
test. They always fail, so `--maxfail` then stops at the first failing test that is not a
canary, wherever the canaries' files sort among the task's own; after them, the task's
tests keep their order. The runner's environment is the verifier user's, out of reach of
the code under test."""

import os


def pytest_collection_modifyitems(session, config, items):
    names = {n for n in os.environ.get("NAB_CANARIES", "").split(",") if n}
    if not names:
        return
    canaries = [item for item in items if item.name in names]
    others = [item for item in items if item.name not in names]
    items[:] = canaries + others
