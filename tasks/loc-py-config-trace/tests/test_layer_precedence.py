import copy
import os

import pytest

from relay.config import load_config
from relay.config.defaults import DEFAULTS
from relay.config.errors import ConfigError
from relay.config.loader import resolve


PROD = """
[server]
host = "0.0.0.0"
port = 9090

[delivery]
timeout = "45s"
backoff = "5s"
concurrency = 16
retries = 7

[queue]
max_pending = 50000

[log]
json = true
"""


@pytest.fixture
def prod(tmp_path):
    p = tmp_path / "relay.toml"
    p.write_text(PROD)
    return str(p)


def test_env_key_keeps_file_values_of_same_section(prod):
    s = load_config(prod, {"RELAY_DELIVERY__VERIFY_TLS": "false"})
    assert s.delivery.verify_tls is False
    assert s.delivery.timeout_s == 45.0
    assert s.delivery.backoff_s == 5.0
    assert s.delivery.concurrency == 16
    assert s.delivery.retries == 7


def test_env_overrides_file_for_the_same_key(prod):
    s = load_config(prod, {"RELAY_DELIVERY__RETRIES": "2", "RELAY_SERVER__PORT": "7000"})
    assert s.delivery.retries == 2
    assert s.server.port == 7000
    assert s.server.host == "0.0.0.0"
    assert s.delivery.timeout_s == 45.0


def test_env_may_set_a_key_back_to_its_default(prod):
    # The file says 7 retries and 9090; the environment explicitly asks for the defaults.
    s = load_config(prod, {"RELAY_DELIVERY__RETRIES": "3", "RELAY_SERVER__PORT": "8080"})
    assert s.delivery.retries == 3
    assert s.server.port == 8080
    assert s.delivery.concurrency == 16


def test_several_env_keys_in_one_section(prod):
    env = {"RELAY_DELIVERY__TIMEOUT": "30s", "RELAY_DELIVERY__CONCURRENCY": "2", "RELAY_LOG__LEVEL": "DEBUG"}
    s = load_config(prod, env)
    assert (s.delivery.timeout_s, s.delivery.concurrency) == (30.0, 2)
    assert (s.delivery.backoff_s, s.delivery.retries) == (5.0, 7)
    assert s.log.level == "debug" and s.log.json is True


def test_sections_untouched_by_env_come_from_file_and_defaults(prod):
    s = load_config(prod, {"RELAY_LOG__LEVEL": "warning"})
    assert s.queue.max_pending == 50000
    assert s.queue.path == DEFAULTS["queue"]["path"]
    assert s.server.max_body_kb == 512


def test_raw_resolution_keeps_every_key(prod):
    merged = resolve(prod, {"RELAY_QUEUE__DROP_AFTER": "2h"})
    assert merged["queue"] == {"path": "/var/lib/relay/queue.db", "max_pending": 50000, "drop_after": "2h"}
    assert merged["delivery"]["timeout"] == "45s"


def test_defaults_are_not_mutated_by_loading(prod):
    before = copy.deepcopy(DEFAULTS)
    load_config(prod, {"RELAY_DELIVERY__RETRIES": "9", "RELAY_LOG__JSON": "yes"})
    load_config(None, {"RELAY_SERVER__HOST": "10.0.0.1"})
    assert DEFAULTS == before
    s = load_config(None, {})
    assert (s.delivery.retries, s.server.host, s.log.json) == (3, "127.0.0.1", False)


def test_env_only_and_defaults_only():
    s = load_config(None, {"RELAY_DELIVERY__RETRIES": "0", "UNRELATED": "x", "RELAY_NOPE__X": "1"})
    assert s.delivery.retries == 0
    assert s.delivery.timeout_s == 10.0


def test_bad_env_value_is_a_clear_error(prod):
    with pytest.raises(ConfigError, match="RELAY_DELIVERY__RETRIES"):
        load_config(prod, {"RELAY_DELIVERY__RETRIES": "many"})
