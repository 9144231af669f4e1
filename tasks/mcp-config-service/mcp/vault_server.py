#!/usr/bin/env python3
"""Secrets vault MCP server (stdio, newline-delimited JSON-RPC 2.0; stdlib only).

Tools: login (a token for a deploy role), describe_secret, list_versions (paged).
Data: data/vault.json next to this file. Like the real service it fronts, it is not
always easy to talk to: tokens expire after a few calls, requests are rate limited, and
the storage backend fails now and then. Each such failure is an isError result whose JSON
text names the error and what to do. The session state (tokens, the rate limiter, which
transient failures already happened) lives in /tmp of the sidecar, so it is the same for
every connection of one trial.
"""
import fcntl
import hashlib
import json
import math
import os
import time

from mcpserve import ToolError, load, serve, tool

STATE_DIR = os.environ.get("NAB_VAULT_STATE", "/tmp/nab-vault")
TOKEN_USES = 4          # calls a token serves before it expires
RATE_EVERY = 5          # every RATE_EVERY-th authenticated call is refused ...
RATE_WAIT_S = 2         # ... and the vault accepts nothing more for this long
PAGE_SIZE = 5
# (tool, secret, page): the first such call meets a transient backend failure.
TRANSIENT = {("list_versions", "orders/db-url-v2", 3), ("list_versions", "payments/orders-api-key", 2)}


class State:
    """The trial's vault session, read and written under an exclusive lock."""

    def __enter__(self):
        os.makedirs(STATE_DIR, exist_ok=True)
        self.lock = open(os.path.join(STATE_DIR, "lock"), "a+")
        fcntl.flock(self.lock, fcntl.LOCK_EX)
        self.path = os.path.join(STATE_DIR, "state.json")
        try:
            with open(self.path, encoding="utf-8") as f:
                self.data = json.load(f)
        except (OSError, ValueError):
            self.data = {"logins": 0, "token": None, "role": None, "uses": 0, "issued": [],
                         "calls": 0, "blocked_until": 0.0, "transient_done": []}
        return self.data

    def __exit__(self, *exc):
        tmp = self.path + ".new"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(self.data, f)
        os.replace(tmp, self.path)
        fcntl.flock(self.lock, fcntl.LOCK_UN)
        self.lock.close()


def fail(code, message, **extra):
    raise ToolError(json.dumps({"error": code, "message": message, **extra}))


def authorize(state, token, call):
    """The checks every call but login passes, in order: token, rate limit, backend."""
    if token not in state["issued"]:
        fail("UNAUTHENTICATED", "unknown token: call login for one")
    if token != state["token"] or state["uses"] >= TOKEN_USES:
        fail("TOKEN_EXPIRED", "this token has expired: call login again for a new one")
    now = time.time()
    if now < state["blocked_until"]:
        wait = max(1, math.ceil(state["blocked_until"] - now))
        fail("RATE_LIMITED", f"too many requests: retry after {wait} seconds", retry_after_s=wait)
    state["calls"] += 1
    if state["calls"] % RATE_EVERY == 0:
        state["blocked_until"] = now + RATE_WAIT_S
        fail("RATE_LIMITED", f"too many requests: retry after {RATE_WAIT_S} seconds",
             retry_after_s=RATE_WAIT_S)
    state["uses"] += 1
    if call in TRANSIENT and list(call) not in state["transient_done"]:
        state["transient_done"].append(list(call))
        fail("UNAVAILABLE", "the storage backend did not answer in time (transient): retry the call")


def secret(state, name):
    data = load("vault.json")
    if name not in data["secrets"]:
        fail("NOT_FOUND", f"no secret named {name!r}")
    if name not in data["roles"][state["role"]]:
        fail("PERMISSION_DENIED", f"role {state['role']!r} may not read secret {name!r}")
    return data["secrets"][name]


@tool("login",
      "Logs in with a deploy role and returns a token for the other tools. A new login "
      "replaces the previous token.",
      {"role": {"type": "string", "description": "a deploy role (configsvc lists each service's)"}},
      required=["role"])
def login(role):
    if role not in load("vault.json")["roles"]:
        fail("UNKNOWN_ROLE", f"no deploy role named {role!r}")
    with State() as state:
        state["logins"] += 1
        token = "hvs." + hashlib.sha256(f"{role}#{state['logins']}".encode()).hexdigest()[:20]
        state.update(token=token, role=role, uses=0)
        state["issued"].append(token)
    return {"token": token, "role": role}


@tool("describe_secret",
      "A secret's metadata: where it moved to if it was moved (a moved secret keeps no "
      "versions), its current version (the one written last) and how many versions it has.",
      {"token": {"type": "string"}, "name": {"type": "string", "description": "e.g. orders/redis-url"}},
      required=["token", "name"])
def describe_secret(token, name):
    with State() as state:
        authorize(state, token, ("describe_secret", name, None))
        s = secret(state, name)
    out = {"name": name}
    if "moved_to" in s:
        out["moved_to"] = s["moved_to"]
    else:
        out["current_version"] = max(v["version"] for v in s["versions"])
        out["version_count"] = len(s["versions"])
    return out


@tool("list_versions",
      f"The versions of a secret, oldest first, {PAGE_SIZE} a page, each with its state "
      "(enabled, disabled: rolled back, destroyed: gone) and creation date.",
      {"token": {"type": "string"}, "name": {"type": "string"},
       "page": {"type": "integer", "description": "1-based; default 1"}},
      required=["token", "name"])
def list_versions(token, name, page=1):
    with State() as state:
        authorize(state, token, ("list_versions", name, page))
        s = secret(state, name)
    if "moved_to" in s:
        fail("MOVED", f"secret {name!r} has moved to {s['moved_to']!r} and keeps no versions here",
             moved_to=s["moved_to"])
    versions = s["versions"]
    pages = max(1, math.ceil(len(versions) / PAGE_SIZE))
    if not 1 <= page <= pages:
        fail("BAD_PAGE", f"secret {name!r} has pages 1 to {pages}")
    return {"name": name, "page": page, "pages": pages,
            "next_page": page + 1 if page < pages else None,
            "versions": versions[(page - 1) * PAGE_SIZE: page * PAGE_SIZE]}


if __name__ == "__main__":
    serve("vault")
