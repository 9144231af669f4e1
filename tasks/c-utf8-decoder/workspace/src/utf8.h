/* UTF-8 as defined by RFC 3629: scalar values U+0000..U+10FFFF except the surrogates
 * U+D800..U+DFFF, each in its shortest form (1-4 bytes). Anything else is invalid. */
#ifndef UTF8_H
#define UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Decodes one code point from s[0..len). Returns the number of bytes it used (1-4) and stores
 * the code point in *cp, or returns -1 if the bytes at s do not start a valid sequence (or
 * the sequence is cut off by len). Never reads s[len] or beyond. len == 0 returns 0. */
int utf8_decode(const uint8_t *s, size_t len, uint32_t *cp);

/* Encodes cp into out (room for 4 bytes). Returns 1-4, or 0 if cp is not a scalar value. */
int utf8_encode(uint32_t cp, uint8_t out[4]);

/* (size_t)-1 if s[0..len) is valid UTF-8, else the offset of the first invalid sequence. */
size_t utf8_validate(const uint8_t *s, size_t len);

/* Number of code points, or (size_t)-1 if invalid. */
size_t utf8_count(const uint8_t *s, size_t len);

#endif
