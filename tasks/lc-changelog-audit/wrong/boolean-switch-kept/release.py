"""Oracle helper: installs Options.java from this folder, bumps the version and adds the
3.0.0 changelog section listing the options removed (argv: the removed options)."""
import shutil
import sys

HERE = sys.path[0]
REPLACEMENT = {"--gzip": ("2.1", "`--compress gzip`"), "--batch": ("2.2", "`--batch-size`"),
               "--no-verify-tls": ("1.8", "a trusted CA via `--tls-ca`"), "--ca-file": ("2.4", "`--tls-ca`"),
               "--silent": ("2.7", "`--quiet`"), "--flush-ms": ("2.3", "`--flush-interval-ms`"),
               "--json": ("2.5", "`--format json`"), "--retry": ("2.6", "`--retries`")}
removed = sys.argv[1:]
shutil.copy(f"{HERE}/Options.java", "src/main/java/dev/logship/cli/Options.java")
v = "src/main/java/dev/logship/cli/Version.java"
text = open(v).read()
open(v, "w").write(text.replace('VERSION = "2.9.4"', 'VERSION = "3.0.0"'))
section = ["## 3.0.0 (unreleased)", ""] + [
    f"- Removed `{o}` (deprecated in {REPLACEMENT[o][0]}; use {REPLACEMENT[o][1]})." for o in removed] + [""]
log = open("CHANGELOG.md").read()
head, rest = log.split("\n## ", 1)
open("CHANGELOG.md", "w").write(head + "\n" + "\n".join(section) + "\n## " + rest)
