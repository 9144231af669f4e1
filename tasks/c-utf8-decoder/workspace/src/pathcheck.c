#include "pathcheck.h"

#include "utf8.h"

int path_check(const uint8_t *p, size_t len) {
    if (utf8_validate(p, len) != (size_t)-1) return PATH_BAD_UTF8;
    if (len == 0 || p[0] == '/') return PATH_ABSOLUTE;
    size_t seg_start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == len || p[i] == '/') {
            size_t seg = i - seg_start;
            if ((seg == 1 && p[seg_start] == '.') || (seg == 2 && p[seg_start] == '.' && p[seg_start + 1] == '.')) {
                return PATH_TRAVERSAL;
            }
            seg_start = i + 1;
            continue;
        }
        if (p[i] < 0x20 || p[i] == 0x7F) return PATH_CONTROL;
    }
    return PATH_OK;
}
