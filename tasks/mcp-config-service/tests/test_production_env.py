"""Hidden checks of config/production.env against orders-api's effective production config
(defaults <- prod-common <- production, with unset entries and secret references). The
managed settings and header themselves are compared on the host (managed.py's output
against expected/managed.env, which never enters a container). They run as the verifier
user, which cannot read the workspace: the env files are read through the broker, as the
sandbox user, and only as regular files (not links)."""
import hashlib
import io
import re

import pytest

import nabverify as nv

PROD = "/workspace/config/production.env"
STAGING = "/workspace/config/staging.env"
MARKER = "# --- local (not managed by configsvc; keep as is) ---"
LOCAL = ["SENTRY_ENVIRONMENT=prod-eu", "LOCAL_TRACE_SAMPLE=0.05"]
STAGING_SHA256 = "e187fd1d3d3b9fc3e56b53e1bebafca29517ffefae5897b01246337a326c9417"


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


def test_managed_keys_sorted(sections):
    managed, _ = sections
    keys = [line.split("=", 1)[0] for line in settings(managed)]
    assert keys == sorted(keys)


def test_no_literal_secrets_or_dropped_keys(sections):
    managed, _ = sections
    text = "\n".join(managed)
    for gone in ("CACHE_TTL=", "LEGACY_SOAP_URL", "DEBUG_SQL", "orders-db-url}"):
        assert gone not in text, f"{gone} should no longer be in the managed section"
    for line in settings(managed):
        key, _, value = line.partition("=")
        if key in ("DB_URL", "PAYMENT_API_KEY"):
            assert re.fullmatch(r"\$\{secret:[a-z0-9-]+\}", value)


def test_local_section_untouched(sections):
    _, local = sections
    assert settings(local) == LOCAL


def test_other_environments_untouched():
    assert hashlib.sha256(read(STAGING)).hexdigest() == STAGING_SHA256
