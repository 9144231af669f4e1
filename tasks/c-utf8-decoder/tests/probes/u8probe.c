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
 *                       utf8_decode(buf, n, &back). Reported as three sequences, one value per
 *                       CP: `lens` (n), `decs` (utf8_decode's result; -2147483649 where it was
 *                       not called) and `backs` (back; -1 where not called). Each sequence is
 *                       written as runs [first, step, count] (step 0: the same value repeated,
 *                       step 1: counting up), a lossless encoding that keeps a million
 *                       values short when they are regular, whatever they are.
 *   sanitize HEX        utf8_sanitize into a heap block of 3 * len bytes -> n, out
 *   path HEX            path_check                          -> verdict */
#include "probe_io.h"

#include "pathcheck.h"
#include "sanitize.h"
#include "utf8.h"

#define NOT_CALLED_DEC (-2147483649LL)
#define NOT_CALLED_BACK (-1LL)

/* A sequence of integers as runs [first, step, count], step 0 or 1, in a growing text. */
struct runs {
    char *text;
    size_t len, cap;
    long long first, last, step;
    unsigned long long count;
};

static void runs_text(struct runs *r, const char *s, size_t n) {
    if (r->len + n + 1 > r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 4096;
        while (cap < r->len + n + 1) cap *= 2;
        char *p = realloc(r->text, cap);
        if (!p) pio_fail("out of memory");
        r->text = p;
        r->cap = cap;
    }
    memcpy(r->text + r->len, s, n);
    r->len += n;
}

static void runs_flush(struct runs *r) {
    if (!r->count) return;
    char tmp[96];
    int n = snprintf(tmp, sizeof tmp, "%s[%lld,%lld,%llu]", r->len ? "," : "", r->first, r->step, r->count);
    runs_text(r, tmp, (size_t)n);
    r->count = 0;
}

static void runs_add(struct runs *r, long long v) {
    if (r->count == 1 && (v == r->last || v == r->last + 1)) {
        r->step = v - r->last;
    } else if (!(r->count > 1 && v == r->last + r->step)) {
        runs_flush(r);
        r->first = v;
        r->step = 0;
    }
    r->last = v;
    r->count++;
}

static void runs_emit(const char *k, struct runs *r) {
    runs_flush(r);
    pio_key(k);
    pio_put("[", 1);
    pio_put(r->text ? r->text : "", r->len);
    pio_put("]", 1);
    free(r->text);
}

static void roundtrip(uint32_t lo, uint32_t hi) {
    struct runs lens = {0}, decs = {0}, backs = {0};
    for (uint64_t c = lo; c <= hi; c++) {
        uint8_t buf[4] = {0};
        int n = utf8_encode((uint32_t)c, buf);
        long long d = NOT_CALLED_DEC, b = NOT_CALLED_BACK;
        if (n >= 1 && n <= 4) {
            uint32_t back = 0xFFFFFFFFu;
            d = utf8_decode(buf, (size_t)n, &back);
            b = back;
        }
        runs_add(&lens, n);
        runs_add(&decs, d);
        runs_add(&backs, b);
    }
    runs_emit("lens", &lens);
    runs_emit("decs", &decs);
    runs_emit("backs", &backs);
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
