/* Calls the log shipper's queue code for the hidden tests and reports what it did (see
 * probe_io.h). Built with the workspace's src/ringbuf.c, src/frame.c, src/logq.c and
 * src/crc32.c under ASan/UBSan, as the sandbox user. Rings live in numbered slots; there is
 * one log queue. Byte strings go in (and out) through heap blocks of exactly their size.
 * Requests:
 *   rinit S CAP         rb_init                   -> rc
 *   rfree S             rb_free
 *   write S HEX         rb_write                  -> rc
 *   read S N            rb_read into N bytes      -> rc, out (all N bytes)
 *   peek S N G          rb_peek of N bytes into a block of N + G bytes, all 0xAA before
 *                                                 -> rc, out (all N + G bytes)
 *   skip S N            rb_skip                   -> rc
 *   used S / space S    rb_used / rb_space        -> value
 *   fput S HEX          frame_put                 -> rc
 *   fnext S             frame_next_size           -> value
 *   ftake S CAP         frame_take into CAP bytes -> rc, len, out (min(len, CAP) bytes)
 *   qinit BYTES         logq_init                 -> rc
 *   qpush HEX           logq_push                 -> rc
 *   qdrain CAP MAX      logq_drain into CAP bytes -> lines, len, out (min(len, CAP) bytes)
 *   qstats              accepted, dropped_full, dropped_corrupt
 *   qfree               logq_free */
#include "probe_io.h"

#include "frame.h"
#include "logq.h"
#include "ringbuf.h"

#define SLOTS 4
static ringbuf ring[SLOTS];
static logq queue;

static ringbuf *ring_arg(void) {
    unsigned long long s = pio_u64();
    if (s >= SLOTS) pio_fail("no such ring");
    return &ring[s];
}

static uint8_t *block(size_t n, int fill) {
    uint8_t *b = malloc(n ? n : 1);
    if (!b) pio_fail("out of memory");
    memset(b, fill, n ? n : 1);
    return b;
}

int main(void) {
    pio_begin();
    const char *op;
    while ((op = pio_next())) {
        pio_open(op);
        if (strcmp(op, "rinit") == 0) {
            ringbuf *rb = ring_arg();
            size_t cap = (size_t)pio_u64();
            pio_int("rc", rb_init(rb, cap));
        } else if (strcmp(op, "rfree") == 0) {
            rb_free(ring_arg());
        } else if (strcmp(op, "write") == 0) {
            ringbuf *rb = ring_arg();
            size_t n;
            uint8_t *b = pio_bytes(&n, 0);
            pio_int("rc", rb_write(rb, b, n));
            free(b);
        } else if (strcmp(op, "read") == 0) {
            ringbuf *rb = ring_arg();
            size_t n = (size_t)pio_u64();
            uint8_t *out = block(n, 0);
            pio_int("rc", rb_read(rb, out, n));
            pio_hex("out", out, n);
            free(out);
        } else if (strcmp(op, "peek") == 0) {
            ringbuf *rb = ring_arg();
            size_t n = (size_t)pio_u64(), guard = (size_t)pio_u64();
            uint8_t *out = block(n + guard, 0xAA);
            pio_int("rc", rb_peek(rb, out, n));
            pio_hex("out", out, n + guard);
            free(out);
        } else if (strcmp(op, "skip") == 0) {
            ringbuf *rb = ring_arg();
            size_t n = (size_t)pio_u64();
            pio_int("rc", rb_skip(rb, n));
        } else if (strcmp(op, "used") == 0) {
            pio_uint("value", rb_used(ring_arg()));
        } else if (strcmp(op, "space") == 0) {
            pio_uint("value", rb_space(ring_arg()));
        } else if (strcmp(op, "fput") == 0) {
            ringbuf *rb = ring_arg();
            size_t n;
            uint8_t *b = pio_bytes(&n, 0);
            pio_int("rc", frame_put(rb, b, n));
            free(b);
        } else if (strcmp(op, "fnext") == 0) {
            pio_int("value", frame_next_size(ring_arg()));
        } else if (strcmp(op, "ftake") == 0) {
            ringbuf *rb = ring_arg();
            size_t cap = (size_t)pio_u64(), len = 0;
            uint8_t *out = block(cap, 0);
            pio_int("rc", frame_take(rb, out, cap, &len));
            pio_uint("len", len);
            pio_hex("out", out, len < cap ? len : cap);
            free(out);
        } else if (strcmp(op, "qinit") == 0) {
            size_t bytes = (size_t)pio_u64();
            pio_int("rc", logq_init(&queue, bytes));
        } else if (strcmp(op, "qpush") == 0) {
            size_t n;
            uint8_t *b = pio_bytes(&n, 0);
            pio_int("rc", logq_push(&queue, (const char *)b, n));
            free(b);
        } else if (strcmp(op, "qdrain") == 0) {
            size_t cap = (size_t)pio_u64(), max = (size_t)pio_u64(), len = 0;
            uint8_t *out = block(cap, 0);
            pio_uint("lines", logq_drain(&queue, (char *)out, cap, max, &len));
            pio_uint("len", len);
            pio_hex("out", out, len < cap ? len : cap);
            free(out);
        } else if (strcmp(op, "qstats") == 0) {
            pio_uint("accepted", queue.accepted);
            pio_uint("dropped_full", queue.dropped_full);
            pio_uint("dropped_corrupt", queue.dropped_corrupt);
        } else if (strcmp(op, "qfree") == 0) {
            logq_free(&queue);
        } else {
            pio_fail("unknown request");
        }
        pio_close();
    }
    return pio_end();
}
