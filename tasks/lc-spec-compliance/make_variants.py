"""Derives solution/kvx.c and wrong/*/kvx.c from workspace/src/kvx.c.
Usage (from this task folder): python3 make_variants.py full|early|errata-partial > OUT"""
import sys
src = open("workspace/src/kvx.c").read()
level = sys.argv[1]  # early | errata-partial | full
def rep(old, new):
    global src
    assert src.count(old) == 1, old
    src = src.replace(old, new)
# §4.1 keys case-insensitive, stored lower case
rep('''static struct kvx_entry *find(const struct kvx_doc *doc, const char *section, const char *key)
{
    for (size_t i = 0; i < doc->count; i++) {
        if (strcmp(doc->entries[i].section, section) == 0 && strcmp(doc->entries[i].key, key) == 0)
            return &doc->entries[i];
    }
    return NULL;
}''', '''/* §4.1: keys compare ASCII case-insensitively (they are stored in lower case). */
static int key_equal(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    }
    return *a == *b;
}

static struct kvx_entry *find(const struct kvx_doc *doc, const char *section, const char *key)
{
    for (size_t i = 0; i < doc->count; i++) {
        if (strcmp(doc->entries[i].section, section) == 0 && key_equal(doc->entries[i].key, key))
            return &doc->entries[i];
    }
    return NULL;
}''')
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
    }
    for (char *c = key; *c; c++) /* §4.1: keys are stored in lower case */
        *c = (char)tolower((unsigned char)*c);''')
# §4.3 unknown escapes are errors
rep('''            default:
                out[n++] = '\\\\';
                out[n++] = *s;
                break;
            }''', '''            default: /* §4.3: any other escape makes the document invalid */
                free(out);
                fail(err, line, "unknown escape sequence '\\\\%c' in quoted value", *s);
                return NULL;
            }''')
if level in ("errata-partial", "full"):
    rep('''    if (old) {
        /* §5.2: the first occurrence of a key in a section wins. */
        free(key);
        free(value);
        return 0;
    }''', '''    if (old) {
        /* Errata E-2 (replaces §5.2): the last occurrence wins; the entry keeps the
         * position of the first occurrence. */
        free(key);
        free(old->value);
        old->value = value;
        return 0;
    }''')
if level == "full":
    rep('''        trim(&vs, &ve);
        if (vs == ve)
            return fail(err, line, "missing value");
        value = dup_range(vs, ve);''', '''        trim(&vs, &ve);
        value = dup_range(vs, ve); /* errata E-3: an empty bare value is "" */''')
    # E-3's "key =   # comment": the '#' may directly follow the whitespace after '='.
    rep('''            if (*c == '#' && c > vs && isspace((unsigned char)c[-1])) {''',
        '''            if (*c == '#' && isspace((unsigned char)c[-1])) { /* c[-1] is at worst the '=' */''')
sys.stdout.write(src)
