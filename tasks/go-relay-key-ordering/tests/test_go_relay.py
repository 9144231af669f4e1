"""Runs the Go tests of go-relay-key-ordering and reports each one as a pytest test.

The verifier's pytest (with the harness's canary beside this file) is the runner; Go runs
in a child process of its own. The workspace is copied to a scratch folder; the
workspace's own go.mod and *_test.go files are put back as shipped (tests/workspace/);
the hidden tests (tests/*_test.go) go into a package of their own, nabhidden/, inside the
module (so they may import its internal packages). Then, offline (GOPROXY=off,
GOFLAGS=-mod=mod, GOTOOLCHAIN=local, GOWORK=off, GOENV=off, caches under the scratch folder:
the root file system is read-only), `go test -json` runs the workspace's packages, and
`go test -race -json` the hidden package: a data race the detector sees fails the test in
which it happened.

Every hidden test and every workspace package is a pytest test by a fixed name, so the
pinned test set does not depend on what the code under test prints.
"""
import json
import os
import shutil
import subprocess
import tempfile

import pytest

TESTS = os.path.dirname(os.path.abspath(__file__))
WORKSPACE = "/workspace"
MODULE = "example.com/relay"

# The hidden tests (tests/*_test.go), by function name.
HIDDEN = [
    "TestCloseLeavesNothingPending",
    "TestCloseLeavesNothingPendingPerKeyWithRetries",
    "TestCloseLeavesNothingPendingUnordered",
    "TestConfigOrdering",
    "TestDrainCountsEventsWaitingBehindTheirKey",
    "TestDrainTimesOutWhileAKeyHangs",
    "TestDrainWaitsForRecordedOutcomesPerKey",
    "TestDrainWaitsForRecordedOutcomesUnordered",
    "TestDrainWaitsForTheStoreWritePerKey",
    "TestDrainWaitsForTheStoreWriteUnordered",
    "TestExistingAPIKept",
    "TestPerKeyConcurrentPublishersFollowSeq",
    "TestPerKeyEventsWithoutKeyStayConcurrent",
    "TestPerKeyGivingUpReleasesTheKey",
    "TestPerKeyHeldKeyDoesNotHoldUpOthers",
    "TestPerKeyOrderWithManyWorkers",
    "TestPerKeyRetryBackoffHoldsOnlyItsKey",
    "TestPerKeyRetryKeepsItsPlace",
    "TestPerKeyStressWithFailures",
    "TestPerKeyWorkersStillBoundDeliveries",
    "TestUnorderedIsStillTheDefault",
]

# The workspace's packages that have tests, as shipped.
PACKAGES = [
    "internal/api",
    "internal/clock",
    "internal/config",
    "internal/dispatch",
    "internal/event",
    "internal/logx",
    "internal/metrics",
    "internal/queue",
    "internal/ratelimit",
    "internal/relay",
    "internal/retry",
    "internal/sink",
    "internal/store",
    "internal/syncx",
]

HIDDEN_PKG = MODULE + "/nabhidden"


def _copy_over(src, dst):
    for root, _, files in os.walk(src):
        for f in files:
            rel = os.path.relpath(os.path.join(root, f), src)
            out = os.path.join(dst, rel)
            if os.path.lexists(out) and (os.path.islink(out) or os.path.isdir(out)):
                shutil.rmtree(out) if os.path.isdir(out) and not os.path.islink(out) else os.remove(out)
            os.makedirs(os.path.dirname(out), exist_ok=True)
            shutil.copyfile(os.path.join(root, f), out)


@pytest.fixture(scope="session")
def go_results():
    scratch = tempfile.mkdtemp(prefix="go-relay-", dir="/tmp")
    src = os.path.join(scratch, "src")
    shutil.copytree(WORKSPACE, src, symlinks=True)
    for name in ("nabhidden", "go.work", "go.work.sum", "vendor"):
        p = os.path.join(src, name)
        if os.path.islink(p) or os.path.isfile(p):
            os.remove(p)
        elif os.path.isdir(p):
            shutil.rmtree(p)
    _copy_over(os.path.join(TESTS, "workspace"), src)
    hidden = os.path.join(src, "nabhidden")
    os.makedirs(hidden)
    for f in sorted(os.listdir(TESTS)):
        if f.endswith("_test.go"):
            shutil.copyfile(os.path.join(TESTS, f), os.path.join(hidden, f))
    for d in ("home", "cache", "gopath", "tmp"):
        os.makedirs(os.path.join(scratch, d))
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": os.path.join(scratch, "home"),
        "TMPDIR": os.path.join(scratch, "tmp"),
        "GOCACHE": os.path.join(scratch, "cache"),
        "GOPATH": os.path.join(scratch, "gopath"),
        "GOPROXY": "off",
        "GOSUMDB": "off",
        "GOFLAGS": "-mod=mod",
        "GOTOOLCHAIN": "local",
        "GOWORK": "off",
        "GOENV": "off",
        "GOTELEMETRY": "off",
        "LANG": "C.UTF-8",
    }
    runs = [
        # The workspace's own packages (cmd/ has no tests, but must build and vet).
        (["go", "test", "-json", "-count=1", "-timeout", "100s", "./internal/...", "./cmd/..."], 130),
        # The hidden tests, under the race detector (cgo: gcc is in the image).
        (["go", "test", "-race", "-json", "-count=1", "-timeout", "110s", "./nabhidden"], 150),
    ]
    out, err = b"", b""
    for argv, limit in runs:
        try:
            proc = subprocess.run(argv, cwd=src, env=dict(env, CGO_ENABLED="1"), stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=limit)
            out, err = out + proc.stdout, err + proc.stderr
        except subprocess.TimeoutExpired as e:
            out = out + (e.stdout or b"")
            err = err + (e.stderr or b"") + f"\n[{' '.join(argv)}: out of time after {limit} s]".encode()
    tests, packages, output, stray = {}, {}, {}, []
    for raw in out.decode("utf-8", "replace").splitlines():
        try:
            ev = json.loads(raw)
        except ValueError:
            stray.append(raw)
            continue
        if not isinstance(ev, dict):
            continue
        pkg, test, action = ev.get("Package", ""), ev.get("Test"), ev.get("Action")
        key = (pkg, test)
        if action == "output":
            output.setdefault(key, []).append(str(ev.get("Output", "")))
        elif action in ("pass", "fail", "skip"):
            if test is None:
                packages[pkg] = action
            elif pkg == HIDDEN_PKG and "/" not in test:
                # A test reported twice (printed by the code under test) counts as failed
                # unless every report says pass.
                prev = tests.get(test)
                tests[test] = action if prev in (None, action) else "fail"
    shutil.rmtree(scratch, ignore_errors=True)
    build = "\n".join(stray[-60:]) + "\n" + err.decode("utf-8", "replace")[-6000:]
    return {"tests": tests, "packages": packages, "output": output, "build": build}


def _why(res, pkg, test):
    text = "".join(res["output"].get((pkg, test), []))[-6000:]
    return text or res["build"]


@pytest.mark.parametrize("name", HIDDEN)
def test_hidden(go_results, name):
    got = go_results["tests"].get(name)
    assert got == "pass", f"{name}: {got or 'did not run'}\n{_why(go_results, HIDDEN_PKG, name)}"


@pytest.mark.parametrize("pkg", PACKAGES)
def test_workspace_package(go_results, pkg):
    full = MODULE + "/" + pkg
    got = go_results["packages"].get(full)
    assert got == "pass", f"{pkg}: {got or 'did not run'}\n{_why(go_results, full, None)}"
