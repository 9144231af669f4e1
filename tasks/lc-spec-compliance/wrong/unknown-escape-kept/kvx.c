/* KVX 1.2 parser. Section numbers (§) refer to docs/kvx-spec.md. */
#include "kvx.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(struct kvx_error *err, int line, const char *fmt, ...)
{
    va_list ap;
    err->line = line;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return -1;
}

static char *dup_range(const char *start, const char *end)
{
    char *s = malloc((size_t)(end - start) + 1);
    if (s) {
        memcpy(s, start, (size_t)(end - start));
        s[end - start] = '\0';
    }
    return s;
}

static void trim(const char **start, const char **end)
{
    while (*start < *end && isspace((unsigned char)**start))
        (*start)++;
    while (*end > *start && isspace((unsigned char)(*end)[-1]))
        (*end)--;
}

static int is_key_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '-';
}

/* a key's folded form (ASCII lower case, '-' -> '_'). */
static char fold_char(char c)
{
    return c == '-' ? '_' : (char)tolower((unsigned char)c);
}

/* keys compare by their folded forms. */
static int same_key(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        if (fold_char(*a) != fold_char(*b))
            return 0;
    }
    return *a == *b;
}

static struct kvx_entry *find(const struct kvx_doc *doc, const char *section, const char *key)
{
    for (size_t i = 0; i < doc->count; i++) {
        if (strcmp(doc->entries[i].section, section) == 0 && same_key(doc->entries[i].key, key))
            return &doc->entries[i];
    }
    return NULL;
}

/* §4.3: a quoted value, with escapes. *p points after the opening quote; on success
 * it points after the closing quote. */
static char *parse_quoted(const char **p, const char *end, int line, struct kvx_error *err)
{
    char *out = malloc((size_t)(end - *p) + 1);
    size_t n = 0;
    if (!out) {
        fail(err, line, "out of memory");
        return NULL;
    }
    const char *s = *p;
    while (s < end && *s != '"') {
        if (*s == '\\' && s + 1 < end) {
            s++;
            switch (*s) {
            case 'n': out[n++] = '\n'; break;
            case 't': out[n++] = '\t'; break;
            case '"': out[n++] = '"'; break;
            case '\\': out[n++] = '\\'; break;
            case 'r': out[n++] = '\r'; break; /* added to R-15 by corrigendum C-31 */
            default:
                out[n++] = '\\';
                out[n++] = *s;
                break;
            }
            s++;
        } else {
            out[n++] = *s++;
        }
    }
    if (s >= end) {
        free(out);
        fail(err, line, "unterminated quoted value");
        return NULL;
    }
    out[n] = '\0';
    *p = s + 1;
    return out;
}

static int add(struct kvx_doc *doc, const char *section, char *key, char *value, int line,
               struct kvx_error *err)
{
    struct kvx_entry *old = find(doc, section, key);
    if (old) {
        /* R-21 as corrected by corrigendum C-7: the last occurrence wins; the entry keeps the
         * position of the first occurrence. */
        free(key);
        free(old->value);
        old->value = value;
        return 0;
    }
    if (doc->count == doc->cap) {
        size_t cap = doc->cap ? doc->cap * 2 : 16;
        struct kvx_entry *grown = realloc(doc->entries, cap * sizeof *grown);
        if (!grown) {
            free(key);
            free(value);
            return fail(err, line, "out of memory");
        }
        doc->entries = grown;
        doc->cap = cap;
    }
    char *sec = strdup(section);
    if (!sec) {
        free(key);
        free(value);
        return fail(err, line, "out of memory");
    }
    doc->entries[doc->count++] = (struct kvx_entry){sec, key, value, line};
    return 0;
}

static int parse_line(const char *start, const char *end, int line, char **section,
                      struct kvx_doc *doc, struct kvx_error *err)
{
    trim(&start, &end);
    if (start == end || *start == '#' || *start == ';')
        return 0; /* §3.1 blank lines, §3.2 comments */
    if (*start == '[') { /* §6.1 section header */
        if (end[-1] != ']')
            return fail(err, line, "section header without closing ']'");
        const char *s = start + 1, *e = end - 1;
        trim(&s, &e);
        if (s == e)
            return fail(err, line, "empty section name");
        char *name = dup_range(s, e);
        if (!name)
            return fail(err, line, "out of memory");
        free(*section);
        *section = name;
        return 0;
    }
    const char *eq = memchr(start, '=', (size_t)(end - start));
    if (!eq)
        return fail(err, line, "expected 'key = value'");
    const char *ks = start, *ke = eq;
    trim(&ks, &ke);
    if (ks == ke)
        return fail(err, line, "empty key");
    if (ke - ks > KVX_MAX_KEY)
        return fail(err, line, "key longer than %d characters", KVX_MAX_KEY);
    for (const char *c = ks; c < ke; c++) {
        if (!is_key_char(*c))
            return fail(err, line, "invalid character '%c' in key", *c);
    }
    const char *vs = eq + 1, *ve = end;
    trim(&vs, &ve);
    char *value;
    if (vs < ve && *vs == '"') { /* §4.3 quoted value */
        const char *p = vs + 1;
        value = parse_quoted(&p, ve, line, err);
        if (!value)
            return -1;
        while (p < ve && isspace((unsigned char)*p))
            p++;
        if (p < ve && *p != '#' && *p != ';') {
            free(value);
            return fail(err, line, "text after closing quote");
        }
    } else { /* §4.2 bare value: an inline comment starts at whitespace + '#' */
        for (const char *c = vs; c < ve; c++) {
            if (*c == '#' && isspace((unsigned char)c[-1])) { /* c[-1] is at worst the '=' */
                ve = c;
                break;
            }
        }
        trim(&vs, &ve);
        value = dup_range(vs, ve); /* corrigendum C-12 withdraws R-14: an empty bare value is "" */
    }
    char *key = dup_range(ks, ke);
    if (!key || !value) {
        free(key);
        free(value);
        return fail(err, line, "out of memory");
    }
    for (char *c = key; *c; c++) /* keys are stored folded */
        *c = fold_char(*c);
    /* R-11 and D.17 (less the prefix for installation-private keys, corrigendum C-18). */
    static const char *const reserved[] = {"kvx.", "sys_"};
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++) {
        if (strncmp(key, reserved[i], strlen(reserved[i])) == 0) {
            free(key);
            free(value);
            return fail(err, line, "reserved key prefix '%s'", reserved[i]);
        }
    }
    return add(doc, *section, key, value, line, err);
}

int kvx_parse(const char *text, struct kvx_doc *doc, struct kvx_error *err)
{
    memset(doc, 0, sizeof *doc);
    char *section = strdup("");
    if (!section)
        return fail(err, 0, "out of memory");
    int line = 1, rc = 0;
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        const char *end = nl ? nl : p + strlen(p);
        const char *content_end = end;
        if (content_end > p && content_end[-1] == '\r') /* §2.2 CRLF */
            content_end--;
        rc = parse_line(p, content_end, line, &section, doc, err);
        if (rc)
            break;
        if (!nl)
            break;
        p = nl + 1;
        line++;
    }
    free(section);
    if (rc)
        kvx_free(doc);
    return rc;
}

const char *kvx_get(const struct kvx_doc *doc, const char *section, const char *key)
{
    struct kvx_entry *e = find(doc, section, key);
    return e ? e->value : NULL;
}

void kvx_free(struct kvx_doc *doc)
{
    for (size_t i = 0; i < doc->count; i++) {
        free(doc->entries[i].section);
        free(doc->entries[i].key);
        free(doc->entries[i].value);
    }
    free(doc->entries);
    memset(doc, 0, sizeof *doc);
}
