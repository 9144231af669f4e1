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
    links and anything else that is not a folder or a regular file. The byte-code caches
    (`__pycache__` folders) are left out: nothing here or in the probes reads them (the Python
    probe and run_plugins.py import sources only, with a cache folder of their own)."""
    files, odd = {}, []
    stack = [top]
    while stack:
        rel = stack.pop()
        entries = nabverify.listdir(f"{WS}/{rel}")
        assert entries is not None, f"{rel} is missing, or not a folder"
        for name, kind in entries:
            path = f"{rel}/{name}"
            if kind == "dir":
                if name != "__pycache__":
                    stack.append(path)
            elif kind == "file":
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
