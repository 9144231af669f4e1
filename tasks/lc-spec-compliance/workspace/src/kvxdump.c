/* kvxdump FILE: prints every entry as "section<TAB>key<TAB>value" (escapes visible). */
#include <stdio.h>
#include <stdlib.h>

#include "kvx.h"

static void put_escaped(const char *s)
{
    for (; *s; s++) {
        if (*s == '\n')
            fputs("\\n", stdout);
        else if (*s == '\t')
            fputs("\\t", stdout);
        else
            putchar(*s);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: kvxdump FILE\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    struct kvx_doc doc;
    struct kvx_error err;
    if (kvx_parse(buf, &doc, &err) != 0) {
        fprintf(stderr, "%s:%d: %s\n", argv[1], err.line, err.message);
        return 1;
    }
    for (size_t i = 0; i < doc.count; i++) {
        printf("[%s]\t%s\t", doc.entries[i].section, doc.entries[i].key);
        put_escaped(doc.entries[i].value);
        putchar('\n');
    }
    kvx_free(&doc);
    return 0;
}
