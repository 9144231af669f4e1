"""Hidden checks of the v3 migration: the v3 core is untouched; no plugin mentions a removed
v2 name in its code (both read from the sources, as conftest.snapshot read them). No
workspace code runs in this step. That every plugin gives the same results as on the v2 core,
on the plain and on the marked core, and that the registry loads all 200 plugins, is checked
on the host (run_plugins.py's output, run as the sandbox user, against
expected/plugin_results.txt and expected/plugin_results_marked.txt, which never enter a
container)."""
import hashlib
import io
import re
import tokenize

from conftest import snapshot

CORE_SHA256 = {
    "__init__.py": "0c3a6a0a8a111f6f1e6fb65270515828a307bf91e161b12f1f171972483e7739",
    "geo.py": "52baee1952638ffdc444a0cc1fff0ecab9dc1d89e14176ceaab771df51d619c9",
    "mathx.py": "3fb4c59a5a530d70b1865ccd26f41c77761688274960e9abd7608b0dee207792",
    "timeutil.py": "088d8da290e47e223843ca4c35d895123cf8c9b2b09a496d0224355be71f15bb",
    "units.py": "2aa785cbfe62534e0c33360d1f1adefa4b5cee85f5cc2a61ce80bc11b93164f6",
}
REMOVED = re.compile(r"\b(distance|to_meters|parse_iso)\b")


def test_core_untouched():
    files, odd = snapshot()
    for name, digest in CORE_SHA256.items():
        data = files.get(f"fleet/core/{name}")
        assert data is not None, f"fleet/core/{name} is missing, or not a regular file"
        assert hashlib.sha256(data).hexdigest() == digest, f"fleet/core/{name} was changed"
    extra = sorted(p.rsplit("/", 1)[1] for p in files
                   if p.startswith("fleet/core/") and p.count("/") == 2 and p.endswith(".py")
                   and p.rsplit("/", 1)[1] not in CORE_SHA256)
    extra += [o for o in odd if o.startswith("fleet/core/")]
    assert not extra, f"new core modules: {extra}"


def names_in(text):
    """The names in a Python source's code (comments and strings left out): a comment that
    mentions a removed name does not reintroduce it."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return set(REMOVED.findall(text))  # not Python: any mention counts
    return {t.string for t in tokens if t.type == tokenize.NAME}


def test_no_removed_names_in_plugins():
    files, _ = snapshot()
    offenders = []
    for rel, data in sorted(files.items()):
        if not rel.endswith(".py") or rel.startswith("fleet/core/"):
            continue
        if names_in(data.decode("utf-8")) & {"distance", "to_meters", "parse_iso"}:
            offenders.append(rel)
    assert not offenders, f"v2 names still used in: {offenders[:10]}"
