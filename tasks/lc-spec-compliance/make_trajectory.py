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
turns = [
    turn("Looking at the workspace and the outline of the spec.",
         call("execute_command", command="ls -R . | head -20; wc -l -c docs/kvx-spec.md src/kvx.c; grep -n '^#' docs/kvx-spec.md | head -60")),
    turn("The spec is 50 KB; its status paragraph says what is normative. Reading the start: status, terminology (1.1), lines, comments.",
         call("read_file", path="docs/kvx-spec.md", offset=1, limit=80)),
    turn("Section 1.1 defines folding (R-2): lower case and '-' -> '_'; later rules will lean on it. Reading section 4 (entries, keys, values).",
         call("read_file", path="docs/kvx-spec.md", offset=80, limit=71)),
    turn("R-10 stores and compares keys folded; R-11 sends me to Appendix D.6 for reserved prefixes; R-14 forbids empty bare values; R-16 makes unknown escapes errors. Sections 5 to 10 next.",
         call("read_file", path="docs/kvx-spec.md", offset=151, limit=75)),
    turn("R-21: first occurrence wins (also across reopened sections, R-22); R-23: section names compared exactly, never folded; R-27/R-28: lookups fold keys, entries keep first-occurrence order. The appendices: A to C say informative, D is a registry that is informative except for subsections that say otherwise. Finding D.6 (R-11) and any other normative subsection, and the errata.",
         call("execute_command", command="grep -n -i 'normative\\|^### D\\.' docs/kvx-spec.md; sed -n '/^### D.6/,/^### D.7/p' docs/kvx-spec.md")),
    turn("D.6 (normative) reserves, on the folded form: `kvx.` (the format itself), `sys_` (host-injected values), `_` (local use). Reading the errata (Appendix E) and Appendix C, which lists what 1.2 changed.",
         call("execute_command", command="sed -n '/^## Appendix C/,/^## Appendix D/p;/^## Appendix E/,$p' docs/kvx-spec.md")),
    turn("The errata name rules by number: E-2 turns R-21 around (the LAST occurrence is used, earlier ones ignored; R-28 keeps the first position); E-3 withdraws R-14 (an empty bare value is \"\", also `key =` followed only by whitespace or an inline comment); E-5 un-reserves the prefix D.6 reserves for local use, which is `_`, so only `kvx.` and `sys_` stay reserved. Now the parser.",
         call("read_file", path="src/kvx.c")),
    turn("kvx.c compares keys with strcmp, keeps them as written, has no reserved prefixes, keeps unknown escapes, lets the first duplicate win and refuses empty values. First, folding (R-2) for lookups and comparisons (R-10):", E[0]),
    turn("Keys stored folded, then the reserved prefixes of D.6 less `_` (E-5), checked on the folded form (R-11):", E[1]),
    turn("Unknown escapes are errors (R-16):", E[2]),
    turn("E-2: the last occurrence wins, at the first one's position (R-28):", E[3]),
    turn("E-3: empty bare values, including a comment right after the whitespace that follows `=`:", E[4], E[5]),
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
doc = {"turns": turns, "summaries": [s_spec, s_code, s_edit, s_edit, s_edit]}
with open("trajectory.yaml", "w") as f:
    yaml.safe_dump(doc, f, sort_keys=False, width=120, allow_unicode=True)
