#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "logq.h"
#include "ringbuf.h"
/* Last: the runner wins over anything the workspace headers defined. */
#include "minitest.h"

/* Put the ring's tail at `offset` (empty ring), then store `len` pattern bytes. */
static void position(ringbuf *rb, size_t offset, const uint8_t *data, size_t len) {
    uint8_t junk[64];
    memset(junk, 0xEE, sizeof junk);
    for (size_t done = 0; done < offset;) {
        size_t n = offset - done < sizeof junk ? offset - done : sizeof junk;
        CHECK_EQ(rb_write(rb, junk, n), 0);
        CHECK_EQ(rb_read(rb, junk, n), 0);
        done += n;
    }
    CHECK_EQ(rb_write(rb, data, len), 0);
}

static void peek_across_every_wrap_point(void) {
    for (size_t cap = 4; cap <= 19; cap++) {
        for (size_t off = 0; off < cap; off++) {
            for (size_t len = 1; len <= cap; len++) {
                ringbuf rb;
                CHECK_EQ(rb_init(&rb, cap), 0);
                uint8_t data[32], got[32], again[32];
                for (size_t i = 0; i < len; i++) data[i] = (uint8_t)(0x30 + i * 7 + off);
                position(&rb, off, data, len);
                memset(got, 0xAA, sizeof got);
                CHECK_EQ(rb_peek(&rb, got, len), 0);
                CHECK_MEM(got, data, len);
                CHECK_EQ(got[len], 0xAA);           /* nothing written past len */
                CHECK_EQ(rb_used(&rb), len);        /* peek consumes nothing */
                CHECK_EQ(rb_read(&rb, again, len), 0);
                CHECK_MEM(again, data, len);
                rb_free(&rb);
            }
        }
    }
}

static void peek_prefix_of_wrapped_data(void) {
    ringbuf rb;
    CHECK_EQ(rb_init(&rb, 10), 0);
    position(&rb, 8, (const uint8_t *)"ABCDEFGHIJ", 10);   /* full, tail at 8 */
    char out[11] = {0};
    CHECK_EQ(rb_peek(&rb, out, 3), 0);
    CHECK_MEM(out, "ABC", 3);
    CHECK_EQ(rb_peek(&rb, out, 10), 0);
    CHECK_MEM(out, "ABCDEFGHIJ", 10);
    CHECK_EQ(rb_peek(&rb, out, 11), -1);
    CHECK_EQ(rb_skip(&rb, 4), 0);
    CHECK_EQ(rb_peek(&rb, out, 6), 0);
    CHECK_MEM(out, "EFGHIJ", 6);
    rb_free(&rb);
}

static void peek_refuses_more_than_stored(void) {
    ringbuf rb;
    CHECK_EQ(rb_init(&rb, 8), 0);
    char out[8];
    CHECK_EQ(rb_peek(&rb, out, 1), -1);
    CHECK_EQ(rb_write(&rb, "xy", 2), 0);
    CHECK_EQ(rb_peek(&rb, out, 3), -1);
    CHECK_EQ(rb_peek(&rb, out, 2), 0);
    CHECK_MEM(out, "xy", 2);
    rb_free(&rb);
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void) {
    rng_state ^= rng_state << 13; rng_state ^= rng_state >> 7; rng_state ^= rng_state << 17;
    return (uint32_t)rng_state;
}

static void frames_survive_wrapping(void) {
    /* Random producer/consumer against a model queue; small rings make headers straddle the end. */
    for (size_t cap = 23; cap <= 97; cap += 7) {
        ringbuf rb;
        CHECK_EQ(rb_init(&rb, cap), 0);
        size_t model_len[4096];
        uint8_t payloads[4096][24];
        size_t head = 0, tail = 0;
        for (int step = 0; step < 3000; step++) {
            if (rnd() % 2) {
                size_t len = rnd() % 20;
                uint8_t *p = payloads[head % 4096];
                for (size_t i = 0; i < len; i++) p[i] = (uint8_t)rnd();
                int rc = frame_put(&rb, p, len);
                if (rc == FRAME_OK) { model_len[head % 4096] = len; head++; }
                else CHECK_EQ(rc, FRAME_FULL);
            } else {
                uint8_t out[64];
                size_t got = 0;
                long next = frame_next_size(&rb);
                int rc = frame_take(&rb, out, sizeof out, &got);
                if (tail == head) {
                    CHECK_EQ(next, FRAME_EMPTY);
                    CHECK_EQ(rc, FRAME_EMPTY);
                } else {
                    CHECK_EQ(next, (long)model_len[tail % 4096]);
                    CHECK_EQ(rc, FRAME_OK);
                    CHECK_EQ(got, model_len[tail % 4096]);
                    CHECK_MEM(out, payloads[tail % 4096], got);
                    tail++;
                }
            }
        }
        rb_free(&rb);
    }
}

static void queue_drains_everything_in_order(void) {
    logq q;
    CHECK_EQ(logq_init(&q, 128), 0);
    char out[1024];
    int next_expected = 1, next_push = 1;
    for (int round = 0; round < 200; round++) {
        for (int k = 0; k < 3; k++) {
            char line[64];
            int n = snprintf(line, sizeof line, "GET /api/items/%d 200 %dms", next_push, next_push % 97);
            CHECK_EQ(logq_push(&q, line, (size_t)n), 0);
            next_push++;
        }
        size_t len = 0;
        size_t lines = logq_drain(&q, out, sizeof out, 3, &len);
        CHECK_EQ(lines, 3);
        for (size_t off = 0; off < len; off += strlen(out + off) + 1) {
            char want[64];
            snprintf(want, sizeof want, "GET /api/items/%d 200 %dms", next_expected, next_expected % 97);
            if (strcmp(out + off, want) != 0) {
                fprintf(stderr, "    got '%s' want '%s'\n", out + off, want);
                CHECK(!"line out of order or corrupted");
            }
            next_expected++;
        }
    }
    CHECK_EQ(q.dropped_corrupt, 0);
    CHECK_EQ(q.accepted, 600);
    logq_free(&q);
}

static void write_read_still_correct(void) {
    ringbuf rb;
    CHECK_EQ(rb_init(&rb, 7), 0);
    uint8_t in[7], out[7];
    for (int i = 0; i < 500; i++) {
        size_t n = 1 + rnd() % 7;
        for (size_t j = 0; j < n; j++) in[j] = (uint8_t)(i + j);
        CHECK_EQ(rb_write(&rb, in, n), 0);
        CHECK_EQ(rb_space(&rb), 7 - n);
        CHECK_EQ(rb_write(&rb, in, 8 - n), -1);
        CHECK_EQ(rb_read(&rb, out, n), 0);
        CHECK_MEM(in, out, n);
        CHECK_EQ(rb_used(&rb), 0);
    }
    rb_free(&rb);
}

int main(int argc, char **argv) {
    RUN(peek_across_every_wrap_point);
    RUN(peek_prefix_of_wrapped_data);
    RUN(peek_refuses_more_than_stored);
    RUN(frames_survive_wrapping);
    RUN(queue_drains_everything_in_order);
    RUN(write_read_still_correct);
    return mt_finish("ringcheck", argc > 1 ? argv[1] : "junit.xml");
}
