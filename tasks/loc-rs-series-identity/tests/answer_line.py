"""Prints the answer the agent named: the first non-empty line of /workspace/ANSWER.txt,
stripped, without a leading "./"; an answer that names the defect in one of the forms a
careful reader could defend is printed as the canonical one. The harness compares this, on
the host, with expected/ANSWER (which never enters a container). It runs as the verifier
user and reads the file through the broker (a regular file, never a link), before any code
of the workspace runs, so it reads the answer as the agent left it.

Accepted: `Labels::fingerprint` (`::` or `.` before the method), the one function whose
own code breaks its contract (equal label sets, equal fingerprints: it counts the empty
labels that comparisons ignore). `SeriesKey::fingerprint` and `Db::shard_of` only pass its
value on; the `Hash` impl and `Eq` of `Labels` agree with each other."""
import re
import sys

import nabverify

CANONICAL = "src/model/labels.rs::Labels::fingerprint"
ACCEPTED = re.compile(r"^src/model/labels\.rs::Labels(?:::|\.)fingerprint$")

text = nabverify.read_text("/workspace/ANSWER.txt")
if text is None:
    sys.exit("ANSWER.txt is missing or not a regular file")
lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
if not lines:
    sys.exit("ANSWER.txt is empty")
answer = lines[0][2:] if lines[0].startswith("./") else lines[0]
if answer.startswith("`") and answer.endswith("`") and len(answer) > 2:
    answer = answer[1:-1]
sys.stdout.write((CANONICAL if ACCEPTED.match(answer) else answer) + "\n")
