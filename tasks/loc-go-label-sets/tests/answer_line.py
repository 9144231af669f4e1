"""Prints the answer the agent named: the first non-empty line of /workspace/ANSWER.txt,
stripped, without a leading "./", and a method's receiver written `(Type).M` or
`(*Type).M` taken as `Type.M` (the forms the instruction allows). The harness compares
this, on the host, with expected/ANSWER (which never enters a container). It runs as the
verifier user and reads the file through the broker (a regular file, never a link), before
any code of the workspace runs, so it reads the answer as the agent left it."""
import sys

import nabverify

text = nabverify.read_text("/workspace/ANSWER.txt")
if text is None:
    sys.exit("ANSWER.txt is missing or not a regular file")
lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
if not lines:
    sys.exit("ANSWER.txt is empty")
answer = lines[0][2:] if lines[0].startswith("./") else lines[0]
path, sep, func = answer.partition("::")
if sep and func.startswith("("):
    recv, close, rest = func[1:].partition(")")
    if close:
        func = recv.lstrip("*").strip() + rest
    answer = path + "::" + func
sys.stdout.write(answer + "\n")
