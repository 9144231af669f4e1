# The code under test is the agent's KVX parser. It is built into a probe
# (tests/probes/kvxprobe.c, at /nab/probes) as the sandbox user and called through the
# broker; the tests here, run as the verifier user, make every assertion.
import pytest

import cprobe

# As the old conformance build had it: ASan/UBSan, any report fatal; the workspace's headers
# only by #include "..." (-iquote), so none stands in for a system header.
CFLAGS = ["-std=c11", "-Wall", "-D_POSIX_C_SOURCE=200809L", "-O1", "-g", "-fsanitize=address,undefined",
          "-fno-sanitize-recover=all"]
ENV = {"ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1", "UBSAN_OPTIONS": "print_stacktrace=1"}


@pytest.fixture(scope="session")
def probe():
    path = cprobe.build("/tmp/nab-kvxprobe", "/nab/probes/kvxprobe.c", ["/workspace/src/kvx.c"],
                        "/workspace/include", CFLAGS)
    return cprobe.Probe(path, ENV)
