"""Hidden checks of the 2.4.0 release preparation: the release notes (built from the PRs
merged into main after v2.3.0, per RELEASING.md) and the version the compiled CLI reports.
The `user: sandbox` step compiled the workspace into /tmp/nab-build/classes; the CLI runs
through the broker as the sandbox user, and the notes are read through it. The notes' title
and sections are compared on the host (notes.py's output against expected/notes.md, which
never enters a container)."""
import nabverify as nv

NOTES = "/workspace/docs/release-notes/2.4.0.md"
CLASSES = "/tmp/nab-build/classes"


def parse():
    text = nv.read_text(NOTES)
    assert text is not None, f"{NOTES} is missing or not a regular file"
    lines = [line.rstrip() for line in text.splitlines() if line.strip()]
    title, sections, current = lines[0], {}, None
    order = []
    for line in lines[1:]:
        if line.startswith("## "):
            current = line[3:].strip()
            order.append(current)
            sections[current] = []
        else:
            assert current is not None, f"text before the first section: {line!r}"
            sections[current].append(line)
    return title, order, sections


def test_nothing_else_listed():
    _, _, sections = parse()
    listed = "\n".join(line for s in sections.values() for line in s)
    # #205 shipped in v2.3.1 through its backport #206; #213's backport #218 is unreleased,
    # so #213 is listed (expected/notes.md) and #218 is not.
    for excluded in ("#198", "#201", "#205", "#206", "#208", "#209", "#211", "#212", "#214", "#218"):
        assert excluded not in listed


def java(*args):
    return nv.run(["java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", CLASSES, "org.textstats.Cli", *args],
                  cwd="/tmp", timeout=60)


def test_version_bumped():
    r = java("--version")
    assert r.ok, r.describe()
    assert r.stdout.strip() == "textstats 2.4.0"


def test_cli_still_counts():
    path = "/tmp/nab-input/t.txt"
    nv.write(path, "Don't stop. don't STOP now, o'neil!\n".encode("utf-8"))
    r = java("--format", "json", path)
    assert r.ok, r.describe()
    assert r.stdout.strip() == '{"don\'t": 2, "stop": 2, "now": 1, "o\'neil": 1}'
