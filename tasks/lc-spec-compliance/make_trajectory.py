#!/usr/bin/env python3
"""Writes trajectory.yaml (the scripted model's play) deterministically: it reads the spec
in pieces under the 14k window, follows R-11 to D.6 and the errata back to the rules they
name, then applies the oracle's edits (make_variants.py full) one by one, so the run has to
summarize. Run from this folder after make_variants.py: python3 make_trajectory.py"""
import yaml

from make_variants import build


def call(name, **args):
    return {"name": name, "arguments": args}


def turn(content, *calls):
    t = {"content": content}
    if calls:
        t["tool_calls"] = list(calls)
    return t


edits = []
build("full", edits)
E = {i: call("edit_file", path="src/kvx.c", old=o, new=n) for i, (o, n) in enumerate(edits)}
# edits: 0 fold + same_key + find, 1 store/reserved check, 2 escapes, 3 last wins, 4 empty
# value, 5 inline comment right after '='.

RULES = ("Rules gathered so far: R-2 (section 1.1) defines folding a key: A-Z to lower case AND '-' to '_'; "
         "keys are the same key when their folded forms are equal. R-10: store and report keys folded, lookups fold "
         "the given key, every key comparison uses folded forms; section names are never folded (R-23: `[pool-a]` and "
         "`[pool_a]` differ). R-11: a key whose folded form begins with a prefix reserved in Appendix D.6 is invalid. "
         "R-14: a bare value must not be empty. R-16: unknown escapes are errors. R-21: the first occurrence of a key in "
         "a section is used (R-22: across reopened sections too). R-28: entries in order of first occurrence.")
FIXES = ["fold keys per R-2 (ASCII lower case and '-' -> '_') in every comparison and lookup (R-10, R-27)",
         "store keys folded (R-10)",
         "refuse keys whose folded form starts with `kvx.` or `sys_` (R-11, D.6; `_` withdrawn by E-5)",
         "unknown escapes are errors (R-16)",
         "last occurrence wins, entry stays at its first position (E-2 on R-21, R-28)",
         "empty bare values are \"\", also with only an inline comment after `=` (E-3 withdraws R-14)",
         "section names stay exact (R-23)"]


def progress(done):
    """The checklist a careful agent restates while editing under a small window."""
    return (" Checklist: done: " + ("; ".join(FIXES[:done]) or "nothing yet") + ". To do: "
            + ("; ".join(FIXES[done:6]) or "only the checks") + ".")


CHECK_C = r'''#include <stdio.h>
#include <string.h>
#include "kvx.h"
static int bad;
static void val(const char *doc, const char *sec, const char *key, const char *want)
{
    struct kvx_doc d; struct kvx_error e;
    if (kvx_parse(doc, &d, &e)) { printf("FAIL parse %s: line %d %s\n", key, e.line, e.message); bad++; return; }
    const char *got = kvx_get(&d, sec, key);
    if (!got || strcmp(got, want)) { printf("FAIL [%s] %s = %s, want %s\n", sec, key, got ? got : "NULL", want); bad++; }
    kvx_free(&d);
}
static void none(const char *doc, const char *sec, const char *key)
{
    struct kvx_doc d; struct kvx_error e;
    if (kvx_parse(doc, &d, &e)) { printf("FAIL parse: line %d %s\n", e.line, e.message); bad++; return; }
    if (kvx_get(&d, sec, key)) { printf("FAIL [%s] %s found\n", sec, key); bad++; }
    kvx_free(&d);
}
static void err(const char *doc, int line)
{
    struct kvx_doc d; struct kvx_error e = {0, ""};
    if (!kvx_parse(doc, &d, &e)) { printf("FAIL no error: %s\n", doc); bad++; kvx_free(&d); return; }
    if (e.line != line) { printf("FAIL line %d, want %d: %s\n", e.line, line, doc); bad++; }
}
int main(void)
{
    val("Max-Conn = 5\n", "", "max_conn", "5");              /* R-2, R-10 */
    val("Max-Conn = 5\n", "", "MAX-CONN", "5");
    val("[pool-a]\nx = 1\n", "pool-a", "X", "1");            /* R-23: exact */
    none("[pool-a]\nx = 1\n", "pool_a", "x");
    err("SYS-Path = /x\n", 1);                                /* R-11 on the folded form */
    err("a = 1\nKvx.Mode = s\n", 2);
    val("_local = 1\n", "", "_local", "1");                  /* E-5 */
    val("sys.path = 1\nsystem = 2\n", "", "system", "2");
    err("v = \"\\q\"\n", 1);                                 /* R-16 */
    val("k = 1\n[b]\nk = 2\n", "", "k", "1");                /* R-20 */
    val("a-b = 1\nA_B = 2\n", "", "a_b", "2");                /* E-2 with folding */
    val("k =   # nothing\n", "", "k", "");                   /* E-3 */
    printf("%d failed\n", bad);
    return 0;
}
'''

turns = [
    turn("Looking at the workspace and the outline of the spec.",
         call("execute_command", command="ls -R . | head -20; wc -l -c docs/kvx-spec.md src/kvx.c; grep -n '^##' docs/kvx-spec.md | head -40")),
    turn("The spec is 50 KB and the window is small, so I read it in pieces and keep notes. The status paragraph says what is normative.",
         call("read_file", path="docs/kvx-spec.md", offset=1, limit=45)),
    turn("Normative: sections 1-8, appendix parts that say so, and the errata. Section 1.1 defines folding (R-2): lower case AND '-' -> '_'; later rules will lean on it.",
         call("read_file", path="docs/kvx-spec.md", offset=46, limit=45)),
    turn("Lines and comments (R-3 to R-7) match what a parser of this kind does. Section 4: entries and keys.",
         call("read_file", path="docs/kvx-spec.md", offset=91, limit=45)),
    turn("R-10 stores and compares keys folded (not just lower-cased); R-11 sends me to Appendix D.6 for reserved prefixes, checked on the folded form; R-14 forbids empty bare values. Quoted values next.",
         call("read_file", path="docs/kvx-spec.md", offset=136, limit=45)),
    turn("R-16 makes unknown escapes errors; R-21 says the first occurrence of a key wins (R-22: across reopened sections). The rest of the normative sections:",
         call("read_file", path="docs/kvx-spec.md", offset=181, limit=45)),
    turn("R-23: section names compared exactly, never folded; R-27/R-28: lookups fold keys, entries keep first-occurrence order. Appendices A-C are informative; D is a registry, informative except for subsections whose title says otherwise. Finding D.6 (R-11) and any other normative subsection:",
         call("execute_command", command="grep -n -i 'normative' docs/kvx-spec.md | cut -c1-120; sed -n '/^### D.6/,/^### D.7/p' docs/kvx-spec.md")),
    turn("D.6 (normative) reserves, on the folded form: `kvx.` (the format itself), `sys_` (host-injected values), `_` (local use). The errata (Appendix E):",
         call("execute_command", command="sed -n '/^## Appendix E/,$p' docs/kvx-spec.md")),
    turn("The errata name rules by number: E-2 turns R-21 around (the LAST occurrence is used, earlier ones ignored; R-28 keeps the first position); E-3 withdraws R-14 (an empty bare value is \"\", also `key =` followed only by whitespace or an inline comment); E-5 un-reserves the prefix D.6 reserves for local use, which is `_`, so only `kvx.` and `sys_` stay reserved. Now the parser, in parts.",
         call("read_file", path="src/kvx.c", offset=1, limit=80)),
    turn("find() compares keys with strcmp; parse_quoted keeps unknown escapes (default: copies the backslash). Next part.",
         call("read_file", path="src/kvx.c", offset=81, limit=80)),
    turn("add() keeps the first duplicate; parse_line trims, splits at the first '='. The rest:",
         call("read_file", path="src/kvx.c", offset=161, limit=80)),
    turn("kvx.c compares keys with strcmp, keeps them as written, has no reserved prefixes, keeps unknown escapes, lets the first duplicate win and refuses empty values. First, folding (R-2) for lookups and comparisons (R-10):" + progress(0), E[0]),
    turn("Keys stored folded, then the reserved prefixes of D.6 less `_` (E-5), checked on the folded form (R-11):" + progress(1), E[1]),
    turn("Unknown escapes are errors (R-16):" + progress(3), E[2]),
    turn("E-2: the last occurrence wins, at the first one's position (R-28):" + progress(4), E[3]),
    turn("E-3: empty bare values, including a comment right after the whitespace that follows `=`:" + progress(5), E[4], E[5]),
    turn("A check program for every rule I changed, against the public API (kvx.h), so the build can prove them; it goes to /tmp, not into the workspace." + progress(6),
         call("execute_command", command="cat > /tmp/check_kvx.c <<'EOF'\n" + CHECK_C + "EOF\n" + "gcc -std=c11 -Wall -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -D_POSIX_C_SOURCE=200809L -Iinclude -o /tmp/check_kvx /tmp/check_kvx.c src/kvx.c && /tmp/check_kvx")),
    turn("Building with warnings and sanitizers and trying every rule on small documents.",
         call("execute_command", command=(
             "make -s CFLAGS='-std=c11 -Wall -Wextra -O1 -g -fsanitize=address,undefined -D_POSIX_C_SOURCE=200809L -Iinclude' && "
             "printf 'Max-Conn = 1\\nPort = 8443\\n[pool-a]\\nIdle-Timeout_s = 30\\nx = 1\\n[b]\\nx = 9\\n[pool-a]\\nX = 2\\nempty =   # none\\n_local = yes\\nsys.path = ok\\nmax_conn = 3\\n' > /tmp/t.kvx && bin/kvxdump /tmp/t.kvx; "
             "for bad in 'SYS-Path = /x' 'a = 1\\nKvx.Mode = s' 'v = \"\\q\"'; do printf \"$bad\\n\" > /tmp/e.kvx; bin/kvxdump /tmp/e.kvx; done; "
             "bin/kvxdump examples/server.kvx; make -s clean"))),
    turn("kvx.c now follows KVX 1.2 with its definitions and errata: keys are folded as section 1.1 defines it (ASCII lower case, "
         "'-' -> '_'), stored folded and looked up folded, while section names stay exact; keys whose folded form starts with a "
         "reserved prefix of Appendix D.6 are errors, except `_`, which erratum E-5 withdrew (so `kvx.` and `sys_` only); unknown "
         "escapes are rejected; a repeated key takes its last value (E-2) at its first position; empty bare values are the empty "
         "string (E-3). The public API is unchanged."),
]

goal = ("## 1. Current goal and success criteria\n\nMake src/kvx.c (C library, include/kvx.h API unchanged, `make` builds "
        "bin/kvxdump) conform to KVX 1.2 as docs/kvx-spec.md specifies it, the whole document where it says it is normative: "
        "sections 1-8, appendix parts marked normative, errata (Appendix E, they win over the text they correct). Reported: "
        "`Port = 8443` not found as `port`; layered files (base + appended override) pick the wrong value.\n\n")


def summary(decided, work, nxt):
    return (goal + "## 2. User requirements and confirmed decisions\n\n" + decided + "\n\n## 3. Work done and evidence\n\n"
            + work + "\n\n## 4. Open problems and next steps\n\n" + nxt + "\n")


s_spec = summary(RULES, "Read docs/kvx-spec.md lines 1-225 (status, sections 1-10). Appendices A-C informative; Appendix D is a "
                 "registry of ~430 well-known keys in tables D.1-D.10, informative except subsections titled normative.",
                 "Read Appendix D.6 (reserved prefixes, R-11), look for other normative subsections, read the errata "
                 "(Appendix E) and map each to the rule it names; then read src/kvx.c and fix it.")
FINAL = (RULES.replace("Rules gathered so far: ", "") + " D.6 (normative) reserves `kvx.`, `sys_`, `_` (folded spellings). "
         "Errata: E-2 replaces R-21's 'first' with 'last' (last occurrence wins, entry keeps its first position, R-28); "
         "E-3 withdraws R-14 (empty bare value = \"\", also `key =   # comment`); E-5 withdraws D.6's prefix for local use "
         "(`_`): reserved are only `kvx.` and `sys_`. E-1, E-4 editorial. Decision: fold in one helper (fold_char), compare "
         "with same_key(), store folded, check prefixes on the folded key.")
s_code = summary(FINAL, "Read the whole spec (sections, D.6, Appendix C, errata). src/kvx.c as found: find() uses strcmp on "
                 "keys, keys stored as written, no reserved-prefix check, parse_quoted keeps unknown escapes (default: "
                 "copies backslash), add() keeps the first duplicate (`/* §5.2 ... */`), bare values: `if (vs == ve) "
                 "return fail(... \"missing value\")` and the inline-comment test needs `c > vs`.",
                 "Edit src/kvx.c: fold_char/same_key in find(); store folded key and check `kvx.`/`sys_` after folding; "
                 "unknown escape -> error; last duplicate wins in place; empty bare value allowed, `#` right after the "
                 "whitespace following `=` starts a comment. Then build with sanitizers and try each rule.")
s_edit = summary(FINAL, "Read the whole spec. Edited src/kvx.c so far: fold_char() + same_key() used by find() (R-2, R-10); "
                 "keys stored folded and refused when the folded form starts with `kvx.` or `sys_` (R-11, D.6, E-5); "
                 "unknown escapes fail (R-16); add() replaces the value of an existing key in place (E-2, R-28).",
                 "Finish E-3 (empty bare values, comment after `=`'s whitespace), build with sanitizers, try folded "
                 "duplicates, reserved spellings (SYS-Path, Kvx.Mode), `_local`, an unknown escape and examples/server.kvx; "
                 "then report.")
s_checked = summary(FINAL, "Read the whole spec. Edited src/kvx.c: fold_char() + same_key() used by find() (R-2, R-10); keys "
                    "stored folded and refused when the folded form starts with `kvx.` or `sys_` (R-11, D.6, E-5); unknown "
                    "escapes fail (R-16); add() replaces the value of an existing key in place (E-2, R-28); empty bare values "
                    "allowed and `#` right after the whitespace following `=` starts a comment (E-3). /tmp/check_kvx.c (public "
                    "API, ASan/UBSan) checks folding, exact section names, reserved spellings, `_local`, unknown escapes, folded "
                    "duplicates and empty values: 0 failed.",
                    "Build with make (warnings, sanitizers), run kvxdump on a sample and on examples/server.kvx, clean, report.")
# The run summarizes once, after the check program (step 18 of 19); the others are spares in
# the order the earlier states would need them, should the agent's thresholds change.
doc = {"turns": turns, "summaries": [s_checked, s_checked, s_spec, s_code, s_edit]}
with open("trajectory.yaml", "w") as f:
    yaml.safe_dump(doc, f, sort_keys=False, width=120, allow_unicode=True)
