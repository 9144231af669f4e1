"""Prints the answer the agent named: the first non-empty line of /workspace/ANSWER.txt,
stripped, without a leading "./" (the forms the instruction allows). The harness compares
this, on the host, with expected/ANSWER (which never enters a container). It runs as the
verifier user and reads the file through the broker (a regular file, never a link), as the
first verify step, before any code of the workspace runs."""
import sys

import nabverify

data = nabverify.read("/workspace/ANSWER.txt")
if data is None:
    sys.exit("ANSWER.txt is missing, or not a regular file")
lines = [ln.strip() for ln in data.decode("utf-8", "replace").splitlines() if ln.strip()]
if not lines:
    sys.exit("ANSWER.txt is empty")
answer = lines[0][2:] if lines[0].startswith("./") else lines[0]
sys.stdout.write(answer + "\n")
