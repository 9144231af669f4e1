# The code under test is the agent's crate, built into a probe (/nab/probes/tmprobe.rs) by
# the `user: sandbox` step before this runner starts; each test drives a probe of its own
# through the broker (see tm.py).
import pytest

from tm import Probe


@pytest.fixture
def probe():
    p = Probe()
    yield p
    p.close()
