# Roots pytest here; nothing from the workspace is configuration.
"""The workspace as the hidden tests see it: /workspace is the sandbox user's alone, so its
files are read through the broker (regular files only, never through a link), once, before
any test runs and before any workspace code has run in this step."""
import functools

import nabverify
import pytest

WS = "/workspace"


@functools.lru_cache(maxsize=None)
def snapshot(top="fleet"):
    """({relative path: bytes} of every regular file under WS/top, [oddities]). Oddities are
    links and anything else that is not a folder or a regular file. Byte code in `__pycache__`
    folders (`*.pyc`) is left out: nothing here or in the probes reads it (the Python probe
    and run_plugins.py import sources only, with a cache folder of their own). Anything else
    in such a folder is listed like any other file (and so is an extra file of fleet/)."""
    files, odd = {}, []
    stack = [(top, False)]
    while stack:
        rel, in_cache = stack.pop()
        entries = nabverify.listdir(f"{WS}/{rel}")
        assert entries is not None, f"{rel} is missing, or not a folder"
        for name, kind in entries:
            path = f"{rel}/{name}"
            if kind == "dir":
                stack.append((path, in_cache or name == "__pycache__"))
            elif kind == "file":
                if in_cache and name.endswith(".pyc"):
                    continue
                data = nabverify.read(f"{WS}/{path}")
                assert data is not None, f"{path} could not be read as a regular file"
                files[path] = data
            else:
                odd.append(f"{path} ({kind})")
    return files, sorted(odd)


@pytest.fixture(scope="session", autouse=True)
def _snapshot_first():
    # Read every file before the first test body runs (and so before the Python probe
    # imports any plugin).
    snapshot()
