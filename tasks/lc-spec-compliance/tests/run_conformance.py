"""Runs the compiled conformance binary and trusts only a final line carrying a fresh
random nonce (so code in the workspace cannot fake success by exiting early)."""
import secrets
import subprocess
import sys

nonce = secrets.token_hex(16)
r = subprocess.run(["/nab/verify/kvx_conformance", "/nab/verify/junit.xml", nonce],
                   capture_output=True, text=True, timeout=60)
sys.stdout.write(r.stdout)
sys.stderr.write(r.stderr)
lines = r.stdout.strip().splitlines()
ok = r.returncode == 0 and lines and lines[-1] == f"{nonce}: 9 tests, 0 failed"
sys.exit(0 if ok else 1)
