"""Hidden checks of config/production.env against orders-api's effective production config
(defaults <- prod-common <- production, with unset entries) and its secrets pinned in the
vault (moves followed to their end, the highest enabled version over every page). The
managed settings and header as a whole are compared on the host (managed.py's output
against expected/managed.env, which never enters a container); these tests say which part
is wrong. They run as the verifier user, which cannot read the workspace: the env files
are read through the broker, as the sandbox user, and only as regular files (not links)."""
import hashlib
import io
import re

import pytest

import nabverify as nv

PROD = "/workspace/config/production.env"
STAGING = "/workspace/config/staging.env"
MARKER = "# --- local (not managed by configsvc; keep as is) ---"
LOCAL = ["SENTRY_ENVIRONMENT=prod-eu", "LOCAL_TRACE_SAMPLE=0.05"]
STAGING_SHA256 = "22056dc1f6a821c8d395d5058ef2393a50c54399b060009b592e1db7d71462d7"
# key: (the name the secret ends at after its moves, its highest enabled version)
PINS = {
    "DB_URL": ("orders/db-url-v2", 11),              # 12 is disabled; 11 is on page 3 of 3
    "JWT_SIGNING_KEY": ("orders/jwt-prod", 6),       # production's, not the defaults' jwt-dev
    "PAYMENT_API_KEY": ("payments/orders-api-key", 7),  # payment-api-key moved twice
    "REDIS_URL": ("orders/redis-url", 2),            # 3 is destroyed
}
PIN = re.compile(r"\$\{secret:([a-z0-9/-]+)@([0-9]+)\}")


def read(path):
    data = nv.read(path)
    assert data is not None, f"{path} is missing or not a regular file"
    return data


@pytest.fixture(scope="module")
def sections():
    with io.TextIOWrapper(io.BytesIO(read(PROD)), encoding="utf-8") as f:
        lines = f.read().splitlines()
    assert MARKER in lines, "the local-section marker line is gone"
    i = lines.index(MARKER)
    return lines[:i], lines[i + 1:]


def settings(lines):
    return [line for line in lines if line.strip() and not line.lstrip().startswith("#")]


@pytest.fixture(scope="module")
def managed(sections):
    return dict(line.split("=", 1) for line in settings(sections[0]) if "=" in line)


def test_managed_keys_sorted(sections):
    keys = [line.split("=", 1)[0] for line in settings(sections[0])]
    assert keys == sorted(keys)


def test_header_names_current_version(sections):
    assert "# configsvc: orders-api/production version 42" in sections[0]


def test_dropped_and_unset_keys_gone(managed):
    for gone in ("CACHE_TTL", "LEGACY_SOAP_URL", "DEBUG_SQL", "SOAP_PASSWORD"):
        assert gone not in managed, f"{gone} should no longer be in the managed section"


@pytest.mark.parametrize("key", sorted(PINS))
def test_secret_pinned(managed, key):
    assert key in managed, f"{key} is missing"
    m = PIN.fullmatch(managed[key])
    assert m, f"{key}={managed[key]} is not a pinned ${{secret:NAME@VERSION}} reference"
    name, version = PINS[key]
    assert m.group(1) == name, f"{key} names {m.group(1)}"
    assert int(m.group(2)) == version, f"{key} pins version {m.group(2)}"


def test_local_section_untouched(sections):
    assert settings(sections[1]) == LOCAL


def test_other_environments_untouched():
    assert hashlib.sha256(read(STAGING)).hexdigest() == STAGING_SHA256
