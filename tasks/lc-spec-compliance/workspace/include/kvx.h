#ifndef KVX_H
#define KVX_H

#include <stddef.h>

/* KVX 1.2 configuration files (docs/kvx-spec.md). */

#define KVX_MAX_KEY 64

struct kvx_entry {
    char *section; /* "" for entries before the first section header */
    char *key;
    char *value;
    int line;      /* 1-based line of the entry */
};

struct kvx_doc {
    struct kvx_entry *entries;
    size_t count, cap;
};

struct kvx_error {
    int line;            /* 1-based line of the offending input */
    char message[128];
};

/* Parses `text` (NUL-terminated). Returns 0 and fills `doc` (release it with kvx_free),
 * or returns -1 and fills `err`; on error `doc` holds nothing that needs freeing. */
int kvx_parse(const char *text, struct kvx_doc *doc, struct kvx_error *err);

/* The value of `key` in `section`, or NULL when absent. */
const char *kvx_get(const struct kvx_doc *doc, const char *section, const char *key);

void kvx_free(struct kvx_doc *doc);

#endif
