"""Hidden checks of the 2.4.0 release preparation: the release notes (built from the PRs
merged into main after v2.3.0, per RELEASING.md) and the version the compiled CLI reports.
The classes were compiled from /workspace by the previous verify step into /nab/verify."""
import subprocess

NOTES = "/workspace/docs/release-notes/2.4.0.md"
CLASSES = "/nab/verify/classes"
EXPECTED = {
    "Breaking changes": [
        "- `WordCounter.count` returns a `LinkedHashMap` ordered by frequency (ties alphabetical); "
        "callers that relied on alphabetical order must sort themselves. (#210)",
        "- Java 17 is now the minimum supported Java version. (#216)",
    ],
    "Features": [
        "- New `--min-length N` option ignores words shorter than N letters. (#207)",
        "- `--format json` prints the counts as a JSON object. (#215)",
    ],
    "Bug fixes": [
        "- Words with apostrophes (don't, O'Neil) are no longer split in two. (#205)",
        "- Counting an empty file prints nothing instead of failing. (#213)",
        "- Words are lower-cased with `Locale.ROOT`, so the dotted and dotless i of Turkish text are no longer merged. (#217)",
    ],
}


def parse():
    with open(NOTES, encoding="utf-8") as f:
        lines = [line.rstrip() for line in f.read().splitlines() if line.strip()]
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


def test_title():
    assert parse()[0] == "# textstats 2.4.0"


def test_sections_in_order():
    _, order, _ = parse()
    assert order == ["Breaking changes", "Features", "Bug fixes"]


def test_breaking_changes():
    assert parse()[2]["Breaking changes"] == EXPECTED["Breaking changes"]


def test_features():
    assert parse()[2]["Features"] == EXPECTED["Features"]


def test_bug_fixes():
    assert parse()[2]["Bug fixes"] == EXPECTED["Bug fixes"]


def test_nothing_else_listed():
    _, _, sections = parse()
    listed = "\n".join(line for s in sections.values() for line in s)
    for excluded in ("#198", "#201", "#206", "#208", "#209", "#211", "#212", "#214"):
        assert excluded not in listed


def java(*args, stdin=None):
    return subprocess.run(["java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", CLASSES, "org.textstats.Cli", *args], capture_output=True, text=True,
                          timeout=60, input=stdin)


def test_version_bumped():
    r = java("--version")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "textstats 2.4.0"


def test_cli_still_counts(tmp_path):
    f = tmp_path / "t.txt"
    f.write_text("Don't stop. don't STOP now, o'neil!\n", encoding="utf-8")
    r = java("--format", "json", str(f))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == '{"don\'t": 2, "stop": 2, "now": 1, "o\'neil": 1}'
