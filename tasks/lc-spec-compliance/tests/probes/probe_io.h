/* The probe's side of the protocol with the hidden tests (which run as another user and make
 * every assertion; see tasks/README.md, "Writing hidden tests across the boundary").
 *
 * A probe is built with the code under test, as the sandbox user, and run through the
 * broker. It reads one request per line on standard input (space-separated tokens; byte
 * strings in hex, "-" for an empty one) and writes one JSON object per request, then
 * {"done": N}, on the descriptor that was standard output when it started. The code under
 * test gets standard error as its standard output, so nothing it prints enters the protocol.
 * A probe holds no expected values and decides nothing: it reports what the code returned
 * and wrote. Sanitizer reports go to standard error, which the runner reads as well. */
#ifndef NAB_PROBE_IO_H
#define NAB_PROBE_IO_H

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Each probe uses some of these helpers. */
#define PIO_FN static __attribute__((unused))

static FILE *pio_out;
static char *pio_line;
static size_t pio_line_cap;
static char *pio_save;
static unsigned long pio_answered;

struct pio_buf { char *p; size_t len, cap; };
static struct pio_buf pio_json;

PIO_FN void pio_fail(const char *what) {
    fprintf(stderr, "probe: %s\n", what);
    exit(3);
}

/* Moves standard output out of the code's way: the protocol gets a descriptor of its own. */
PIO_FN void pio_begin(void) {
    int fd = dup(1);
    if (fd < 0 || dup2(2, 1) < 0) pio_fail("cannot set up the protocol descriptor");
    pio_out = fdopen(fd, "w");
    if (!pio_out) pio_fail("fdopen");
    setvbuf(stdout, NULL, _IONBF, 0);
}

/* The next request's first token (its op), or NULL at the end of input. */
PIO_FN const char *pio_next(void) {
    for (;;) {
        ssize_t n = getline(&pio_line, &pio_line_cap, stdin);
        if (n < 0) return NULL;
        while (n > 0 && (pio_line[n - 1] == '\n' || pio_line[n - 1] == '\r')) pio_line[--n] = '\0';
        if (n == 0) continue;
        return strtok_r(pio_line, " ", &pio_save);
    }
}

PIO_FN const char *pio_tok(void) {
    const char *t = strtok_r(NULL, " ", &pio_save);
    if (!t) pio_fail("a request is missing an argument");
    return t;
}

PIO_FN unsigned long long pio_u64(void) {
    const char *t = pio_tok();
    char *end;
    errno = 0;
    unsigned long long v = strtoull(t, &end, 0);
    if (errno || *end || t[0] == '-') pio_fail("a number argument is not an unsigned number");
    return v;
}

PIO_FN int pio_hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* A byte-string argument in a heap block of exactly its length (at least 1 byte is
 * allocated, so an empty string is a valid pointer), so any read past it is an ASan report.
 * `extra` more bytes are allocated and zeroed after it (a NUL terminator, say). */
PIO_FN uint8_t *pio_bytes(size_t *len, size_t extra) {
    const char *t = pio_tok();
    size_t n = strcmp(t, "-") == 0 ? 0 : strlen(t);
    if (n % 2) pio_fail("a hex argument has an odd length");
    uint8_t *b = malloc(n / 2 + extra ? n / 2 + extra : 1);
    if (!b) pio_fail("out of memory");
    for (size_t i = 0; i < n / 2; i++) {
        int hi = pio_hexval(t[2 * i]), lo = pio_hexval(t[2 * i + 1]);
        if (hi < 0 || lo < 0) pio_fail("a hex argument has a non-hex digit");
        b[i] = (uint8_t)(hi << 4 | lo);
    }
    memset(b + n / 2, 0, extra);
    *len = n / 2;
    return b;
}

PIO_FN void pio_put(const char *s, size_t n) {
    if (pio_json.len + n + 1 > pio_json.cap) {
        size_t cap = pio_json.cap ? pio_json.cap : 4096;
        while (cap < pio_json.len + n + 1) cap *= 2;
        char *p = realloc(pio_json.p, cap);
        if (!p) pio_fail("out of memory");
        pio_json.p = p;
        pio_json.cap = cap;
    }
    memcpy(pio_json.p + pio_json.len, s, n);
    pio_json.len += n;
    pio_json.p[pio_json.len] = '\0';
}

PIO_FN void pio_fmt(const char *fmt, ...) {
    char tmp[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof tmp) pio_fail("a formatted value is too long");
    pio_put(tmp, (size_t)n);
}

/* A comma before every member but the first of the object being written. */
static int pio_first;

PIO_FN void pio_key(const char *k) {
    if (!pio_first) pio_put(",", 1);
    pio_first = 0;
    pio_fmt("\"%s\":", k);
}

PIO_FN void pio_open(const char *op) {
    pio_json.len = 0;
    pio_first = 1;
    pio_put("{", 1);
    pio_key("op");
    pio_fmt("\"%s\"", op);
}

PIO_FN void pio_int(const char *k, long long v) { pio_key(k); pio_fmt("%lld", v); }
PIO_FN void pio_uint(const char *k, unsigned long long v) { pio_key(k); pio_fmt("%llu", v); }
PIO_FN void pio_bool(const char *k, int v) { pio_key(k); pio_put(v ? "true" : "false", v ? 4 : 5); }
PIO_FN void pio_null(const char *k) { pio_key(k); pio_put("null", 4); }

PIO_FN void pio_hex(const char *k, const void *data, size_t n) {
    static const char digits[] = "0123456789abcdef";
    const uint8_t *b = data;
    pio_key(k);
    pio_put("\"", 1);
    for (size_t i = 0; i < n; i++) {
        char two[2] = {digits[b[i] >> 4], digits[b[i] & 15]};
        pio_put(two, 2);
    }
    pio_put("\"", 1);
}

/* Ends the answer to one request and sends it. */
PIO_FN void pio_close(void) {
    pio_put("}\n", 2);
    if (fwrite(pio_json.p, 1, pio_json.len, pio_out) != pio_json.len || fflush(pio_out) != 0)
        pio_fail("cannot write an answer");
    pio_answered++;
}

/* After the last request: how many were answered. */
PIO_FN int pio_end(void) {
    fprintf(pio_out, "{\"done\":%lu}\n", pio_answered);
    if (fflush(pio_out) != 0) pio_fail("cannot write the end");
    return 0;
}

#endif
