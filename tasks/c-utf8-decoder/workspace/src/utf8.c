#include "utf8.h"

int utf8_decode(const uint8_t *s, size_t len, uint32_t *cp) {
    if (len == 0) return 0;
    uint8_t c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    int n;
    uint32_t v;
    if ((c & 0xE0) == 0xC0) {
        n = 2;
        v = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
        n = 3;
        v = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
        n = 4;
        v = c & 0x07;
    } else {
        return -1;
    }
    for (int i = 1; i < n; i++) {
        v = (v << 6) | (s[i] & 0x3F);
    }
    *cp = v;
    return n;
}

int utf8_encode(uint32_t cp, uint8_t out[4]) {
    if (cp < 0x80) {
        out[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (uint8_t)(0xC0 | cp >> 6);
        out[1] = (uint8_t)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp >= 0xD800 && cp <= 0xDFFF) return 0;
    if (cp < 0x10000) {
        out[0] = (uint8_t)(0xE0 | cp >> 12);
        out[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
        out[2] = (uint8_t)(0x80 | (cp & 0x3F));
        return 3;
    }
    if (cp <= 0x10FFFF) {
        out[0] = (uint8_t)(0xF0 | cp >> 18);
        out[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3F));
        out[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
        out[3] = (uint8_t)(0x80 | (cp & 0x3F));
        return 4;
    }
    return 0;
}

size_t utf8_validate(const uint8_t *s, size_t len) {
    size_t i = 0;
    while (i < len) {
        uint32_t cp;
        int n = utf8_decode(s + i, len - i, &cp);
        if (n <= 0) return i;
        i += (size_t)n;
    }
    return (size_t)-1;
}

size_t utf8_count(const uint8_t *s, size_t len) {
    size_t i = 0, count = 0;
    while (i < len) {
        uint32_t cp;
        int n = utf8_decode(s + i, len - i, &cp);
        if (n <= 0) return (size_t)-1;
        i += (size_t)n;
        count++;
    }
    return count;
}
