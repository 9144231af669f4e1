#!/usr/bin/env python3
"""Writes trajectory.yaml (the scripted model's play) deterministically: it reads section 0
(what binds a reader, the annex subsections that do, the corrigendum that section 0.4
withdraws) and sections 1-8 in pieces under the 12k window, follows R-11 to D.17 in the
middle of the registry, pulls the corrigenda that apply to KVX-C out of Annex Q by their
"Applies to" line and maps each to the rule it names, then applies the oracle's edits
(make_variants.py full) one by one, so the run has to summarize. Run from this folder after
generate_spec.py and make_variants.py: python3 make_trajectory.py"""
import yaml

from make_variants import build

SPEC = open("workspace/docs/kvx-spec.md").read().split("\n")


def at(prefix):
    """1-based line of the first line that starts with `prefix`."""
    return next(i for i, l in enumerate(SPEC, 1) if l.startswith(prefix))


def call(name, **args):
    return {"name": name, "arguments": args}


def turn(content, *calls):
    t = {"content": content}
    if calls:
        t["tool_calls"] = list(calls)
    return t


def read(start, end):
    return call("read_file", path="docs/kvx-spec.md", offset=start, limit=end - start)


edits = []
build("full", edits)
E = {i: call("edit_file", path="src/kvx.c", old=o, new=n) for i, (o, n) in enumerate(edits)}
# edits: 0 fold + same_key + find, 1 store/held-back check, 2 escapes (+ \r), 3 last wins,
# 4 empty value, 5 inline comment right after '='.

RULES = ("Rules gathered so far: section 0: KVX-C is this document's code; a reader is bound by sections 1-8, the annex "
         "subsections listed in 0.3 (D.17, G.4, G.9) and the corrigenda of Annex Q whose 'Applies to' is KVX-C; 0.4: C-23 "
         "is WITHDRAWN (R-19's text stands), C-31 stands. R-2 (section 1.1) defines folding a key: A-Z to small a-z AND "
         "'-' to '_'; keys are the same key when their folded forms are equal. R-10: keep and report keys folded, a "
         "request folds the given key, every key comparison uses folded forms; section names are never folded (R-23: "
         "`[pool-a]` and `[pool_a]` differ). R-11: a key whose folded form begins with a prefix D.17 holds back is "
         "invalid. R-14: a bare value must not be empty. R-15: escapes \\\" \\\\ \\n \\t; R-16: others are errors. R-19: "
         "64 characters max. R-21: the first occurrence of a key in a section is used (R-22: across reopened sections). "
         "R-28: entries in order of first occurrence.")
FIXES = ["fold keys per R-2 (ASCII small forms and '-' -> '_') in every comparison and request (R-10, R-27)",
         "keep keys folded (R-10)",
         "refuse keys whose folded form starts with `kvx.` or `sys_` (R-11, D.17; `_` lifted by C-18)",
         "unknown escapes are errors (R-16), `\\r` is a carriage return (C-31)",
         "last occurrence wins, entry stays at its first position (C-7 on R-21, R-28)",
         "empty bare values are \"\", also with only an inline comment after `=` (C-12 withdraws R-14)",
         "section names stay exact (R-23); 64-character keys stay the limit (C-23 withdrawn)"]


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
    char longkey[128];
    memset(longkey, 'k', 100); strcpy(longkey + 100, " = x\n");
    val("Max-Conn = 5\n", "", "max_conn", "5");              /* R-2, R-10 */
    val("Max-Conn = 5\n", "", "MAX-CONN", "5");
    val("[pool-a]\nx = 1\n", "pool-a", "X", "1");            /* R-23: exact */
    none("[pool-a]\nx = 1\n", "pool_a", "x");
    err("SYS-Path = /x\n", 1);                                /* R-11 on the folded form */
    err("a = 1\nKvx.Mode = s\n", 2);
    val("_local = 1\n", "", "_local", "1");                  /* C-18 */
    val("env.home = 1\n", "", "env.home", "1");              /* C-9 is for KVX-V only */
    val("sys.path = 1\nsystem = 2\n", "", "system", "2");
    err("v = \"\\q\"\n", 1);                                 /* R-16 */
    val("v = \"a\\rb\"\n", "", "v", "a\rb");                 /* C-31 */
    err(longkey, 1);                                          /* R-19: C-23 withdrawn */
    val("k = 1\n[b]\nk = 2\n", "", "k", "1");                /* R-20 */
    val("a-b = 1\nA_B = 2\n", "", "a_b", "2");                /* C-7 with folding */
    val("k =   # nothing\n", "", "k", "");                   /* C-12 */
    printf("%d failed\n", bad);
    return 0;
}
'''

CORE_Q = ("awk '/^### C-/{if(b ~ /Applies to: KVX-C\\n/) printf \"%s\", b; b=\"\"; q=1} "
          "/^## Annex/{if(b ~ /Applies to: KVX-C\\n/) printf \"%s\", b; b=\"\"; q=0} q{b=b $0 \"\\n\"} "
          "END{if(b ~ /Applies to: KVX-C\\n/) printf \"%s\", b}' docs/kvx-spec.md")

s1, s4, s42, s6, sA = at("## 1. "), at("## 4. "), at("### 4.2"), at("## 6. "), at("## Annex A")
turns = [
    turn("Looking at the workspace and the outline of the spec.",
         call("execute_command", command="ls -R . | head -20; wc -l -c docs/kvx-spec.md src/kvx.c; grep -n '^## ' docs/kvx-spec.md")),
    turn("The spec is about 370 KB and the window is small, so I read it in pieces and keep notes. Section 0 says what is normative, and for whom.",
         read(1, s1)),
    turn("Section 0: this document is KVX-C; a reader is bound by sections 1-8, the annex subsections listed in 0.3 (D.17, G.4, G.9) and the corrigenda in Annex Q whose 'Applies to' is KVX-C. 0.4: C-23 is withdrawn in full, C-31 stands. Now sections 1-3.",
         read(s1, s4)),
    turn("Section 1.1 defines folding (R-2): capitals to small forms AND '-' -> '_'; later rules will lean on it. R-3 to R-7 match what a parser of this kind does. Section 4: entries and keys.",
         read(s4, s42)),
    turn("R-10 keeps and compares keys folded (not just lower-cased); R-11 sends me to D.17 for held-back prefixes, checked on the folded form. Bare and quoted values next.",
         read(s42, s6)),
    turn("R-14 forbids empty bare values; R-15's escapes are \\\" \\\\ \\n \\t and R-16 makes others errors; R-19: at most 64 characters; R-21 says the first occurrence of a key wins (R-22: across reopened sections). The rest of the binding sections:",
         read(s6, sA)),
    turn("R-23: section names compared exactly, never folded; R-27/R-28: requests fold keys, entries keep first-occurrence order. Now D.17 (bound by 0.3) and the other two subsections 0.3 lists:",
         call("execute_command", command="sed -n '/^### D.17/,/^### D.18/p;/^### G.4/,/^### G.5/p;/^### G.9/,/^### G.10/p' docs/kvx-spec.md")),
    turn("D.17 holds back, on the folded form: `kvx.` (the format itself), `sys_` (host-injected values), `_` (keys private to one installation). G.4 and G.9 match what the code does. Now the corrigenda that apply to KVX-C, by their 'Applies to' line:",
         call("execute_command", command=CORE_Q)),
    turn("Corrigenda for KVX-C name rules by number: C-7 turns R-21 around (the LAST occurrence is used, earlier ones ignored; R-28 keeps the first position); C-12 withdraws R-14 (an empty bare value is \"\", also `key =` followed only by whitespace or an inline comment); C-18 lifts D.17's holding-back for installation-private keys, which is `_`, so only `kvx.` and `sys_` stay; C-23 (128-character keys) is withdrawn by 0.4, so R-19's 64 stands; C-31 adds `\\r` (CR) to R-15. The rest apply to the profiles (C-4 folds section names and C-9 holds back `env.` for KVX-S and KVX-V only; C-14 and C-29 bind writers). "
         "Notes to keep, since the window is small: (1) fold = capitals to small forms and '-' to '_' (R-2), keys kept folded and "
         "compared folded (R-10, R-27), section names exact (R-23); (2) held back on the folded form: `kvx.`, `sys_` (D.17 less `_`, C-18); "
         "(3) escapes \\\" \\\\ \\n \\t \\r, anything else an error (R-15, C-31, R-16); (4) last occurrence wins, at the first "
         "position (C-7, R-28); (5) empty bare values are \"\" (C-12); (6) keys up to 64 characters (R-19; C-23 withdrawn by 0.4). "
         "Now the parser, in parts.",
         call("read_file", path="src/kvx.c", offset=1, limit=80)),
    turn("find() compares keys with strcmp; parse_quoted keeps unknown escapes (default: copies the backslash). Next part.",
         call("read_file", path="src/kvx.c", offset=81, limit=80)),
    turn("add() keeps the first duplicate; parse_line trims, splits at the first '=', checks the length against KVX_MAX_KEY (64, right). The rest:",
         call("read_file", path="src/kvx.c", offset=161, limit=80)),
    turn("kvx.c compares keys with strcmp, keeps them as written, has no held-back prefixes, keeps unknown escapes (no \\r), lets the first duplicate win and refuses empty values. First, folding (R-2) for requests and comparisons (R-10):" + progress(0), E[0]),
    turn("Keys kept folded, then the prefixes of D.17 less `_` (C-18), checked on the folded form (R-11):" + progress(1), E[1]),
    turn("Unknown escapes are errors (R-16), and `\\r` is a carriage return (C-31):" + progress(3), E[2]),
    turn("C-7: the last occurrence wins, at the first one's position (R-28):" + progress(4), E[3]),
    turn("C-12: empty bare values, including a comment right after the whitespace that follows `=`:" + progress(5), E[4], E[5]),
    turn("A check program for every rule I changed, against the functions of kvx.h, so the build can prove them; it goes to /tmp, not into the workspace." + progress(6),
         call("execute_command", command="cat > /tmp/check_kvx.c <<'EOF'\n" + CHECK_C + "EOF\n" + "gcc -std=c11 -Wall -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -D_POSIX_C_SOURCE=200809L -Iinclude -o /tmp/check_kvx /tmp/check_kvx.c src/kvx.c && /tmp/check_kvx")),
    turn("Building with warnings and sanitizers and trying every rule on small documents.",
         call("execute_command", command=(
             "make -s CFLAGS='-std=c11 -Wall -Wextra -O1 -g -fsanitize=address,undefined -D_POSIX_C_SOURCE=200809L -Iinclude' && "
             "printf 'Max-Conn = 1\\nPort = 8443\\n[pool-a]\\nIdle-Timeout_s = 30\\nx = 1\\n[b]\\nx = 9\\n[pool-a]\\nX = 2\\nempty =   # none\\n_local = yes\\nsys.path = ok\\nmax_conn = 3\\n' > /tmp/t.kvx && bin/kvxdump /tmp/t.kvx; "
             "for bad in 'SYS-Path = /x' 'a = 1\\nKvx.Mode = s' 'v = \"\\q\"'; do printf \"$bad\\n\" > /tmp/e.kvx; bin/kvxdump /tmp/e.kvx; done; "
             "bin/kvxdump examples/server.kvx; make -s clean"))),
    turn("kvx.c now follows KVX 1.2 with its definitions and the corrigenda that apply to it: keys are folded as section 1.1 "
         "defines it (capitals to small forms, '-' -> '_'), kept folded and matched folded, while section names stay exact; keys "
         "whose folded form starts with a prefix D.17 holds back (bound by section 0.3) are errors, except `_`, which C-18 lifted "
         "(so `kvx.` and `sys_` only); unknown escapes are rejected and `\\r` is a carriage return (C-31); a repeated key takes "
         "its last value (C-7) at its first position; empty bare values are the empty string (C-12); the 64-character key "
         "limit stands because section 0.4 withdraws C-23; corrigenda for the profiles (KVX-V, KVX-S, KVX-I, KVX-W) do not "
         "apply. include/kvx.h is unchanged."),
]

goal = ("## 1. Current goal and success criteria\n\nMake src/kvx.c (C library, include/kvx.h API unchanged, `make` builds "
        "bin/kvxdump) conform to KVX 1.2 as docs/kvx-spec.md specifies it, the whole document where it says it is normative "
        "(section 0 says for whom). Reported: `Port = 8443` not found as `port`; layered files (base + appended override) "
        "pick the wrong value.\n\n")


def summary(decided, work, nxt):
    return (goal + "## 2. User requirements and confirmed decisions\n\n" + decided + "\n\n## 3. Work done and evidence\n\n"
            + work + "\n\n## 4. Open problems and next steps\n\n" + nxt + "\n")


s_spec = summary(RULES, f"Read docs/kvx-spec.md lines 1-{sA} (section 0, sections 1-10). Annexes A-C informative; Annex D is a "
                 "registry of well-known keys, informative except D.17 (section 0.3); Annex P holds the profiles; Annex Q "
                 "the corrigenda register for every document of the volume.",
                 "Read D.17 (held-back prefixes, R-11), G.4, G.9, then the corrigenda whose 'Applies to' is KVX-C and map "
                 "each to the rule it names (C-23 is withdrawn); then read src/kvx.c and fix it.")
FINAL = (RULES.replace("Rules gathered so far: ", "") + " D.17 (binding) holds back `kvx.`, `sys_`, `_` (folded spellings). "
         "Corrigenda for KVX-C: C-7 replaces R-21's 'first' with 'last' (last occurrence wins, entry keeps its first "
         "position, R-28); C-12 withdraws R-14 (empty bare value = \"\", also `key =   # comment`); C-18 lifts D.17's "
         "prefix for installation-private keys (`_`): held back are only `kvx.` and `sys_`; C-23 (128) withdrawn by 0.4, "
         "keys stay at most 64; C-31 adds `\\r` = CR to R-15. C-2, C-27 editorial. Corrigenda for KVX-V/S/I/W do not "
         "apply (e.g. C-4 folding section names, C-9 `env.`). Decision: fold in one helper (fold_char), compare with "
         "same_key(), keep folded, check prefixes on the folded key.")
s_code = summary(FINAL, "Read the binding parts of the spec (section 0, sections 1-8, D.17, G.4, G.9, corrigenda for "
                 "KVX-C). src/kvx.c as found: find() uses strcmp on keys, keys kept as written, no held-back-prefix "
                 "check, parse_quoted keeps unknown escapes (default: copies backslash), add() keeps the first duplicate "
                 "(`/* §5.2 ... */`), bare values: `if (vs == ve) return fail(... \"missing value\")` and the "
                 "inline-comment test needs `c > vs`.",
                 "Edit src/kvx.c: fold_char/same_key in find(); keep folded key and check `kvx.`/`sys_` after folding; "
                 "`\\r` escape, other unknown escapes -> error; last duplicate wins in place; empty bare value allowed, "
                 "`#` right after the whitespace following `=` starts a comment. Then build with sanitizers and try each "
                 "rule.")
s_edit = summary(FINAL, "Read the binding parts of the spec. Edited src/kvx.c so far: fold_char() + same_key() used by find() "
                 "(R-2, R-10); keys kept folded and refused when the folded form starts with `kvx.` or `sys_` (R-11, D.17, "
                 "C-18); `\\r` added (C-31) and other unknown escapes fail (R-16); add() replaces the value of an existing "
                 "key in place (C-7, R-28).",
                 "Finish C-12 (empty bare values, comment after `=`'s whitespace), build with sanitizers, try folded "
                 "duplicates, held-back spellings (SYS-Path, Kvx.Mode), `_local`, `env.home`, `\\r`, an unknown escape, a "
                 "100-character key and examples/server.kvx; then report.")
s_checked = summary(FINAL, "Read the binding parts of the spec. Edited src/kvx.c: fold_char() + same_key() used by find() "
                    "(R-2, R-10); keys kept folded and refused when the folded form starts with `kvx.` or `sys_` (R-11, "
                    "D.17, C-18); `\\r` added (C-31), other unknown escapes fail (R-16); add() replaces the value of an "
                    "existing key in place (C-7, R-28); empty bare values allowed and `#` right after the whitespace "
                    "following `=` starts a comment (C-12); key length check left at 64 (C-23 withdrawn). "
                    "/tmp/check_kvx.c (kvx.h functions, ASan/UBSan) checks folding, exact section names, held-back "
                    "spellings, `_local`, `env.home`, unknown escapes, `\\r`, the 64 limit, folded duplicates and empty "
                    "values: 0 failed.",
                    "Build with make (warnings, sanitizers), run kvxdump on a sample and on examples/server.kvx, clean, "
                    "report.")
# The run summarizes twice: before the first edit (step 12, after the spec and the code are
# read) and before the final answer (step 19, after the build); the rest are spares in the
# order the other states would need them, should the agent's thresholds change.
doc = {"turns": turns, "summaries": [s_code, s_checked, s_edit, s_checked, s_spec]}
with open("trajectory.yaml", "w") as f:
    yaml.safe_dump(doc, f, sort_keys=False, width=120, allow_unicode=True)
