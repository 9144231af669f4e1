# The code under test is the agent's image library. It is built into a probe
# (tests/probes/imgprobe.c, at /nab/probes) as the sandbox user and called through the
# broker; the tests here, run as the verifier user, make every assertion.
import pytest

import cprobe

SRC = "/workspace/src"
# As the old in-process runner had it: ASan/UBSan, any report fatal; the workspace's headers
# only by #include "..." (-iquote), so none stands in for a system header.
CFLAGS = ["-std=c11", "-D_DEFAULT_SOURCE", "-O1", "-g", "-fsanitize=address,undefined",
          "-fno-sanitize-recover=all"]
ENV = {"ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1:allocator_may_return_null=1",
       "UBSAN_OPTIONS": "print_stacktrace=1"}


@pytest.fixture(scope="session")
def probe():
    path = cprobe.build("/tmp/nab-imgprobe", "/nab/probes/imgprobe.c",
                        [SRC + "/image.c", SRC + "/pnm.c"], SRC, CFLAGS)
    return cprobe.Probe(path, ENV)
