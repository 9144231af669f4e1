#include "sanitize.h"

#include <string.h>

#include "utf8.h"

size_t utf8_sanitize(const uint8_t *s, size_t len, uint8_t *out) {
    static const uint8_t replacement[3] = {0xEF, 0xBF, 0xBD};
    size_t i = 0, o = 0;
    while (i < len) {
        uint32_t cp;
        int n = utf8_decode(s + i, len - i, &cp);
        if (n > 0) {
            memcpy(out + o, s + i, (size_t)n);
            o += (size_t)n;
            i += (size_t)n;
        } else {
            memcpy(out + o, replacement, sizeof replacement);
            o += sizeof replacement;
            i++;
        }
    }
    return o;
}
