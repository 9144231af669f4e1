/* Calls the UTF-8 library for the hidden tests and reports what it did (see probe_io.h).
 * Built with the workspace's src/utf8.c, src/sanitize.c and src/pathcheck.c under
 * ASan/UBSan, as the sandbox user. Every input is passed in a heap block of exactly its
 * length, so a read past it is an ASan report. Requests:
 *   decode HEX          utf8_decode(bytes, len)            -> n, cp (cp starts as 0xDEAD)
 *   decodecut HEX LEN   utf8_decode(bytes, LEN) with LEN shorter than the block
 *   validate HEX        utf8_validate                       -> offset
 *   count HEX           utf8_count                          -> count
 *   encode CP           utf8_encode(CP, out)                -> n, out (the first n bytes, or
 *                                                              all 4 when n is not 0..4)
 *   roundtrip LO HI     for every CP in LO..HI: n = utf8_encode(CP, buf), and when n is 1..4,
 *                       utf8_decode(buf, n, &back). Reported as arrays (base64): `lens` (n
 *                       per CP, one signed byte, saturated), `enc` (the n bytes of every CP
 *                       whose n is 1..4, in order), `decs` (utf8_decode's result per CP, one
 *                       signed byte, saturated; -128 where it was not called), `backs` (back
 *                       per CP, 32-bit little-endian; 0xFFFFFFFF where not called)
 *   sanitize HEX        utf8_sanitize into a heap block of 3 * len bytes -> n, out
 *   path HEX            path_check                          -> verdict */
#include "probe_io.h"

#include "pathcheck.h"
#include "sanitize.h"
#include "utf8.h"

static int8_t sat8(long long v) { return (int8_t)(v < -127 ? -127 : v > 127 ? 127 : v); }

struct grow { uint8_t *p; size_t len, cap; };

static void grow_put(struct grow *g, const void *data, size_t n) {
    if (g->len + n > g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 1 << 16;
        while (cap < g->len + n) cap *= 2;
        uint8_t *p = realloc(g->p, cap);
        if (!p) pio_fail("out of memory");
        g->p = p;
        g->cap = cap;
    }
    memcpy(g->p + g->len, data, n);
    g->len += n;
}

static void roundtrip(uint32_t lo, uint32_t hi) {
    struct grow lens = {0}, enc = {0}, decs = {0}, backs = {0};
    for (uint64_t c = lo; c <= hi; c++) {
        uint32_t cp = (uint32_t)c;
        uint8_t buf[4] = {0};
        int n = utf8_encode(cp, buf);
        int8_t l = sat8(n), d = -128;
        uint32_t back = 0xFFFFFFFFu;
        if (n >= 1 && n <= 4) {
            grow_put(&enc, buf, (size_t)n);
            d = sat8(utf8_decode(buf, (size_t)n, &back));
        }
        uint8_t le[4] = {(uint8_t)back, (uint8_t)(back >> 8), (uint8_t)(back >> 16), (uint8_t)(back >> 24)};
        grow_put(&lens, &l, 1);
        grow_put(&decs, &d, 1);
        grow_put(&backs, le, 4);
    }
    pio_b64("lens", lens.p, lens.len);
    pio_b64("enc", enc.p, enc.len);
    pio_b64("decs", decs.p, decs.len);
    pio_b64("backs", backs.p, backs.len);
    free(lens.p);
    free(enc.p);
    free(decs.p);
    free(backs.p);
}

int main(void) {
    pio_begin();
    const char *op;
    while ((op = pio_next())) {
        pio_open(op);
        if (strcmp(op, "decode") == 0 || strcmp(op, "decodecut") == 0) {
            size_t len;
            uint8_t *b = pio_bytes(&len, 0);
            size_t use = len;
            if (op[6] == 'c') {
                use = (size_t)pio_u64();
                if (use > len) pio_fail("decodecut: LEN is longer than the bytes");
            }
            uint32_t cp = 0xDEAD;
            int n = utf8_decode(b, use, &cp);
            pio_int("n", n);
            pio_uint("cp", cp);
            free(b);
        } else if (strcmp(op, "validate") == 0 || strcmp(op, "count") == 0) {
            size_t len;
            uint8_t *b = pio_bytes(&len, 0);
            size_t v = op[0] == 'v' ? utf8_validate(b, len) : utf8_count(b, len);
            pio_uint("value", v);
            free(b);
        } else if (strcmp(op, "encode") == 0) {
            uint32_t cp = (uint32_t)pio_u64();
            uint8_t out[4] = {0};
            int n = utf8_encode(cp, out);
            pio_int("n", n);
            pio_hex("out", out, n >= 0 && n <= 4 ? (size_t)n : 4);
        } else if (strcmp(op, "roundtrip") == 0) {
            uint32_t lo = (uint32_t)pio_u64(), hi = (uint32_t)pio_u64();
            roundtrip(lo, hi);
        } else if (strcmp(op, "sanitize") == 0) {
            size_t len;
            uint8_t *b = pio_bytes(&len, 0);
            size_t room = 3 * len;
            uint8_t *out = malloc(room ? room : 1);
            if (!out) pio_fail("out of memory");
            size_t n = utf8_sanitize(b, len, out);
            pio_uint("n", n);
            pio_hex("out", out, n < room ? n : room);
            free(out);
            free(b);
        } else if (strcmp(op, "path") == 0) {
            size_t len;
            uint8_t *b = pio_bytes(&len, 0);
            pio_int("verdict", path_check(b, len));
            free(b);
        } else {
            pio_fail("unknown request");
        }
        pio_close();
    }
    return pio_end();
}
