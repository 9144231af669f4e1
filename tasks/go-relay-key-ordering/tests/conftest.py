# The code under test is the agent's module, built with the probe of these tests
# (/nab/probes/relayprobe/, under the race detector) by the `user: sandbox` step before this
# runner starts; each test drives a probe of its own through the broker (relayprobe.py).
import pytest

from relayprobe import Probe


@pytest.fixture
def probe():
    p = Probe()
    yield p
    p.kill()
