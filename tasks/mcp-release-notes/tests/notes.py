"""Prints docs/release-notes/2.4.0.md normalized: its non-empty lines with trailing spaces
removed, the title first and then each `## ` section with its lines. The harness compares
this, on the host, with expected/notes.md (the notes RELEASING.md asks for, built from the
PRs merged into main after v2.3.0), which never enters a container. It runs as the verifier
user and reads the notes through the broker (a regular file, never a link), as the first
verify step, before any code of the workspace, so it reads them as the agent left them."""
import sys

import nabverify

text = nabverify.read_text("/workspace/docs/release-notes/2.4.0.md")
if text is None:
    sys.exit("docs/release-notes/2.4.0.md is missing or not a regular file")
lines = [line.rstrip() for line in text.splitlines() if line.strip()]
if not lines:
    sys.exit("the release notes are empty")
out = [lines[0]]
section = None
for line in lines[1:]:
    if line.startswith("## "):
        section = line[3:].strip()
        out.append("## " + section)
    elif section is None:
        out.append(f"(text before the first section: {line!r})")
    else:
        out.append(line)
sys.stdout.write("\n".join(out) + "\n")
