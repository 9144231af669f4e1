"""Derives solution/kvx.c and wrong/*/kvx.c from workspace/src/kvx.c, deterministically.
Usage (from this task folder): python3 make_variants.py VARIANT > OUT, or
python3 make_variants.py --all to write every variant in place.

full                  every rule, the definitions and the corrigenda for KVX-C (the oracle)
early-rules-only      sections 1-8 and D.17 as first published: no corrigendum at all
errata-partial        C-7 (last occurrence wins) but not C-12 (empty values), C-18 or C-31
skips-registry        the `grep '^## '` reading: sections and corrigenda, never Annex D, so
                      no held-back prefixes (R-11 -> D.17, bound by section 0.3)
case-only-folding     keys lower-cased only (the one-keyword "case-insensitive" reading),
                      not the '-' -> '_' of R-2's definition
prefix-before-folding held-back prefixes checked on the key as written, not its folded form
local-prefix-reserved misses C-18: '_' (D.17's prefix for installation-private keys) stays
                      held back
previous-oracle       this task's oracle before the spec had definitions and D.17: lower-cased
                      keys, escapes, C-7 and C-12 (what a grep for the corrigenda finds)
no-cr-escape          everything but C-31, which adds `\r` to R-15's table by rule number only
withdrawn-corrigendum applies C-23 (keys up to 128 characters), which section 0.4 withdraws
other-documents       also applies corrigenda meant for the profiles (C-4: section names
                      folded; C-9: `env.` held back), ignoring their "Applies to" line"""
import sys

VARIANTS = {
    #                      fold   dash   reserved         escape last   empty  cr  limit others
    "full":                 (1,    1,    "folded-no-_",    1,    1,    1,     1,  64,   0),
    "early-rules-only":     (1,    1,    "folded-with-_",  1,    0,    0,     0,  64,   0),
    "errata-partial":       (1,    1,    "folded-with-_",  1,    1,    0,     0,  64,   0),
    "skips-registry":       (1,    1,    None,             1,    1,    1,     1,  64,   0),
    "case-only-folding":    (1,    0,    "folded-no-_",    1,    1,    1,     1,  64,   0),
    "prefix-before-folding": (1,   1,    "raw-no-_",       1,    1,    1,     1,  64,   0),
    "local-prefix-reserved": (1,   1,    "folded-with-_",  1,    1,    1,     1,  64,   0),
    "previous-oracle":      (1,    0,    None,             1,    1,    1,     0,  64,   0),
    "no-cr-escape":         (1,    1,    "folded-no-_",    1,    1,    1,     0,  64,   0),
    "withdrawn-corrigendum": (1,   1,    "folded-no-_",    1,    1,    1,     1,  128,  0),
    "other-documents":      (1,    1,    "folded-no-_",    1,    1,    1,     1,  64,   1),
}
OUT = {"full": "solution/kvx.c"}
OUT.update({k: f"wrong/{k}/kvx.c" for k in VARIANTS if k != "full"})


def build(variant, edits=None):
    """The variant's source; `edits`, if given, receives each (old, new) replacement."""
    fold, dash, reserved, escape, last, empty, cr, limit, others = VARIANTS[variant]
    sec_cmp = ("same_key(doc->entries[i].section, section)" if others
               else "strcmp(doc->entries[i].section, section) == 0")
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
        if ({sec_cmp} && same_key(doc->entries[i].key, key))
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
        prefixes = '"kvx.", "sys_"' + ('' if reserved.endswith("no-_") else ', "_"') + (', "env."' if others else '')
        cond = ("strncmp(key, reserved[i], strlen(reserved[i])) == 0" if reserved.startswith("folded")
                else "(size_t)(ke - ks) >= strlen(reserved[i]) && strncmp(ks, reserved[i], strlen(reserved[i])) == 0")
        check = f'''
    /* R-11 and D.17{" (less the prefix for installation-private keys, corrigendum C-18)" if reserved.endswith("no-_") else ""}. */
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
    CR = ("case 'r': out[n++] = '\\r'; break; /* added to R-15 by corrigendum C-31 */\n            "
          if cr else "")
    if limit != 64:
        rep('''    if (ke - ks > KVX_MAX_KEY)
        return fail(err, line, "key longer than %d characters", KVX_MAX_KEY);''',
            f'''    if (ke - ks > {limit}) /* R-19 as corrected by corrigendum C-23 */
        return fail(err, line, "key longer than %d characters", {limit});''')
    if escape:
        rep('''            default:
                out[n++] = '\\\\';
                out[n++] = *s;
                break;
            }''', '''            ''' + CR + '''default: /* R-16: any other escape makes the document invalid */
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
        /* R-21 as corrected by corrigendum C-7: the last occurrence wins; the entry keeps the
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
        value = dup_range(vs, ve); /* corrigendum C-12 withdraws R-14: an empty bare value is "" */''')
        # C-12's "key =   # comment": the '#' may directly follow the whitespace after '='.
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
