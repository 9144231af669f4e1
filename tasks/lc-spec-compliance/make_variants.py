"""Derives solution/kvx.c and wrong/*/kvx.c from workspace/src/kvx.c, deterministically.
Usage (from this task folder): python3 make_variants.py VARIANT > OUT, or
python3 make_variants.py --all to write every variant in place.

full                  every rule, the definitions and the errata (the oracle)
early-rules-only      sections 1-8 and D.6 as first published: no errata at all
errata-partial        E-2 (last occurrence wins) but not E-3 (empty values) or E-5
skips-registry        the `grep '^## '` reading: sections and errata, never Appendix D, so
                      no reserved prefixes (R-11 -> D.6)
case-only-folding     keys lower-cased only (the one-keyword "case-insensitive" reading),
                      not the '-' -> '_' of R-2's definition
prefix-before-folding reserved prefixes checked on the key as written, not its folded form
local-prefix-reserved misses E-5: '_' (D.6's prefix for local use) stays reserved
previous-oracle       this task's oracle before the spec had definitions and D.6: lower-cased
                      keys, escapes, E-2 and E-3 (what a grep for the errata finds)"""
import sys

VARIANTS = {
    #                      fold   dash   reserved         escape last   empty
    "full":                 (1,    1,    "folded-no-_",    1,    1,    1),
    "early-rules-only":     (1,    1,    "folded-with-_",  1,    0,    0),
    "errata-partial":       (1,    1,    "folded-with-_",  1,    1,    0),
    "skips-registry":       (1,    1,    None,             1,    1,    1),
    "case-only-folding":    (1,    0,    "folded-no-_",    1,    1,    1),
    "prefix-before-folding": (1,   1,    "raw-no-_",       1,    1,    1),
    "local-prefix-reserved": (1,   1,    "folded-with-_",  1,    1,    1),
    "previous-oracle":      (1,    0,    None,             1,    1,    1),
}
OUT = {"full": "solution/kvx.c"}
OUT.update({k: f"wrong/{k}/kvx.c" for k in VARIANTS if k != "full"})


def build(variant, edits=None):
    """The variant's source; `edits`, if given, receives each (old, new) replacement."""
    fold, dash, reserved, escape, last, empty = VARIANTS[variant]
    src = open("workspace/src/kvx.c").read()

    def rep(old, new):
        nonlocal src
        assert src.count(old) == 1, old
        src = src.replace(old, new)
        if edits is not None:
            edits.append((old, new))

    fold_expr = ("c == '-' ? '_' : (char)tolower((unsigned char)c)" if dash
                 else "(char)tolower((unsigned char)c)")
    if fold:
        rep('''static struct kvx_entry *find(const struct kvx_doc *doc, const char *section, const char *key)
{
    for (size_t i = 0; i < doc->count; i++) {
        if (strcmp(doc->entries[i].section, section) == 0 && strcmp(doc->entries[i].key, key) == 0)
            return &doc->entries[i];
    }
    return NULL;
}''', f'''/* R-2: a key's folded form (ASCII lower case, '-' -> '_'). */
static char fold_char(char c)
{{
    return {fold_expr};
}}

/* R-10: keys compare by their folded forms. */
static int same_key(const char *a, const char *b)
{{
    for (; *a && *b; a++, b++) {{
        if (fold_char(*a) != fold_char(*b))
            return 0;
    }}
    return *a == *b;
}}

static struct kvx_entry *find(const struct kvx_doc *doc, const char *section, const char *key)
{{
    for (size_t i = 0; i < doc->count; i++) {{
        if (strcmp(doc->entries[i].section, section) == 0 && same_key(doc->entries[i].key, key))
            return &doc->entries[i];
    }}
    return NULL;
}}''')
    store = ""
    if fold:
        store = '''
    for (char *c = key; *c; c++) /* R-10: keys are stored folded */
        *c = fold_char(*c);'''
    check = ""
    if reserved:
        prefixes = '"kvx.", "sys_"' + ('' if reserved.endswith("no-_") else ', "_"')
        cond = ("strncmp(key, reserved[i], strlen(reserved[i])) == 0" if reserved.startswith("folded")
                else "(size_t)(ke - ks) >= strlen(reserved[i]) && strncmp(ks, reserved[i], strlen(reserved[i])) == 0")
        check = f'''
    /* R-11 and Appendix D.6{" (less the local-use prefix, erratum E-5)" if reserved.endswith("no-_") else ""}. */
    static const char *const reserved[] = {{{prefixes}}};
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++) {{
        if ({cond}) {{
            free(key);
            free(value);
            return fail(err, line, "reserved key prefix '%s'", reserved[i]);
        }}
    }}'''
    rep('''    char *key = dup_range(ks, ke);
    if (!key || !value) {
        free(key);
        free(value);
        return fail(err, line, "out of memory");
    }''', '''    char *key = dup_range(ks, ke);
    if (!key || !value) {
        free(key);
        free(value);
        return fail(err, line, "out of memory");
    }''' + store + check)
    if escape:
        rep('''            default:
                out[n++] = '\\\\';
                out[n++] = *s;
                break;
            }''', '''            default: /* R-16: any other escape makes the document invalid */
                free(out);
                fail(err, line, "unknown escape sequence '\\\\%c' in quoted value", *s);
                return NULL;
            }''')
    if last:
        rep('''    if (old) {
        /* §5.2: the first occurrence of a key in a section wins. */
        free(key);
        free(value);
        return 0;
    }''', '''    if (old) {
        /* R-21 as corrected by erratum E-2: the last occurrence wins; the entry keeps the
         * position of the first occurrence (R-28). */
        free(key);
        free(old->value);
        old->value = value;
        return 0;
    }''')
    if empty:
        rep('''        trim(&vs, &ve);
        if (vs == ve)
            return fail(err, line, "missing value");
        value = dup_range(vs, ve);''', '''        trim(&vs, &ve);
        value = dup_range(vs, ve); /* erratum E-3 withdraws R-14: an empty bare value is "" */''')
        # E-3's "key =   # comment": the '#' may directly follow the whitespace after '='.
        rep('''            if (*c == '#' && c > vs && isspace((unsigned char)c[-1])) {''',
            '''            if (*c == '#' && isspace((unsigned char)c[-1])) { /* c[-1] is at worst the '=' */''')
    return src


if __name__ == "__main__":
    if sys.argv[1] == "--all":
        for v, path in OUT.items():
            with open(path, "w") as f:
                f.write(build(v))
    else:
        sys.stdout.write(build(sys.argv[1]))
