#ifndef SANITIZE_H
#define SANITIZE_H

#include <stddef.h>
#include <stdint.h>

/* Copies s[0..len) to out as valid UTF-8: every valid sequence is copied as is; every byte
 * that does not start a valid sequence is replaced by U+FFFD (EF BF BD) and decoding resumes
 * at the next byte. out needs 3 * len bytes at most. Returns the bytes written. */
size_t utf8_sanitize(const uint8_t *s, size_t len, uint8_t *out);

#endif
