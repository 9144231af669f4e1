"""Prints the answer the agent named: the first non-empty line of /workspace/ANSWER.txt,
stripped, without a leading "./" (the forms the instruction allows). The harness compares
this, on the host, with expected/ANSWER (which never enters a container). It runs as the
first verify step, before any code of the workspace, so it reads the answer as the agent
left it."""
import sys

with open("/workspace/ANSWER.txt", encoding="utf-8", errors="replace") as f:
    lines = [ln.strip() for ln in f.read().splitlines() if ln.strip()]
if not lines:
    sys.exit("ANSWER.txt is empty")
answer = lines[0][2:] if lines[0].startswith("./") else lines[0]
sys.stdout.write(answer + "\n")
