"""Runs the compiled conformance binary and trusts its exit status only after a final line
carrying a fresh random nonce (so code in the workspace cannot fake success by exiting
early). The harness's planted canary fails in every honest run, so the status is non-zero
then; the harness judges the JUnit report with the canary set apart."""
import secrets
import subprocess
import sys

nonce = secrets.token_hex(16)
r = subprocess.run(["/nab/verify/kvx_conformance", "/nab/verify/junit.xml", nonce],
                   capture_output=True, text=True, timeout=60)
sys.stdout.write(r.stdout)
sys.stderr.write(r.stderr)
lines = r.stdout.strip().splitlines()
finished = bool(lines) and lines[-1].startswith(f"{nonce}: ")
sys.exit(r.returncode if finished else 1)
