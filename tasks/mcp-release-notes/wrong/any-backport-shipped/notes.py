"""Oracle: builds docs/release-notes/2.4.0.md from the review data the MCP server serves.
Flags reproduce the known-wrong variants."""
import json
import re
import sys

flags = set(sys.argv[1:])
data = json.load(open("/nab/mcp/data/reviews.json"))
since = next(t["date"] for t in data["tags"] if t["name"] == "v2.3.0")
if "--wrong-range" in flags:  # the latest tag by date, any branch, and any base branch
    since = max(t["date"] for t in data["tags"])
# A change shipped when its backport (a PR into a release branch saying "Backport of #N")
# was merged before a tag cut from that branch.
shipped = set()
for b in data["pull_requests"]:
    m = re.search(r"Backport of #(\d+)", b["body"])
    if "--backports-ignored" in flags or b["base"] == "main" or b["state"] != "merged" or not m:
        continue
    tagged = [t for t in data["tags"] if t["branch"] == b["base"]]
    if "--any-backport-shipped" in flags or any(t["date"] > b["merged_at"] for t in tagged):
        shipped.add(int(m.group(1)))
sections = [("Breaking changes", "kind/breaking"), ("Features", "kind/feature"), ("Bug fixes", "kind/bug")]
out = {name: [] for name, _ in sections}
for p in sorted(data["pull_requests"], key=lambda p: p["number"]):
    if p["state"] != "merged" or p["merged_at"] <= since:
        continue
    if p["base"] != "main" and "--wrong-range" not in flags:
        continue
    if p["number"] in shipped:
        continue
    note = re.search(r"```release-note\n(.*?)\n```", p["body"], re.S).group(1).strip()
    if note == "NONE" or "release-note-none" in p["labels"]:
        continue
    text = p["title"] if "--titles" in flags else note
    for name, label in sections:
        if label in p["labels"]:
            out[name].append(f"- {text} (#{p['number']})")
            if "--breaking-twice" not in flags:
                break
lines = ["# textstats 2.4.0"]
for name, _ in sections:
    if out[name]:
        lines += ["", f"## {name}"] + out[name]
open("docs/release-notes/2.4.0.md", "w").write("\n".join(lines) + "\n")
src = "src/main/java/org/textstats/Version.java"
t = open(src).read()
open(src, "w").write(t.replace('VERSION = "2.3.0"', 'VERSION = "2.4.0"'))
