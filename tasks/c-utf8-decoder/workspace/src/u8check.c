/* u8check FILE...: reports whether each file is valid UTF-8 and where the first error is. */
#include <stdio.h>
#include <stdlib.h>

#include "utf8.h"

int main(int argc, char **argv) {
    int bad = 0;
    for (int a = 1; a < argc; a++) {
        FILE *f = fopen(argv[a], "rb");
        if (!f) { perror(argv[a]); bad = 1; continue; }
        size_t cap = 4096, len = 0, got;
        uint8_t *buf = malloc(cap);
        while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
            len += got;
            if (len == cap) {
                uint8_t *b = realloc(buf, cap *= 2);
                if (!b) free(buf);
                buf = b;
            }
        }
        fclose(f);
        if (!buf) { fprintf(stderr, "u8check: out of memory\n"); return 2; }
        size_t at = utf8_validate(buf, len);
        if (at == (size_t)-1) {
            printf("%s: ok, %zu code points\n", argv[a], utf8_count(buf, len));
        } else {
            printf("%s: invalid UTF-8 at byte %zu\n", argv[a], at);
            bad = 1;
        }
        free(buf);
    }
    return bad;
}
