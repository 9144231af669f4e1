#include "frame.h"

static void put_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

static uint32_t get_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

int frame_put(ringbuf *rb, const void *payload, size_t len) {
    if (len > FRAME_MAX_PAYLOAD) return FRAME_TOO_LARGE;
    if (rb_space(rb) < FRAME_HEADER + len) return FRAME_FULL;
    uint8_t hdr[FRAME_HEADER];
    put_be32(hdr, (uint32_t)len);
    rb_write(rb, hdr, sizeof hdr);
    rb_write(rb, payload, len);
    return FRAME_OK;
}

long frame_next_size(const ringbuf *rb) {
    uint8_t hdr[FRAME_HEADER];
    if (rb_used(rb) == 0) return FRAME_EMPTY;
    if (rb_peek(rb, hdr, sizeof hdr) != 0) return FRAME_CORRUPT;
    uint32_t len = get_be32(hdr);
    if (len > FRAME_MAX_PAYLOAD) return FRAME_CORRUPT;
    if (rb_used(rb) < FRAME_HEADER + (size_t)len) return FRAME_CORRUPT;
    return (long)len;
}

int frame_take(ringbuf *rb, void *out, size_t cap, size_t *len) {
    long size = frame_next_size(rb);
    if (size < 0) return (int)size;
    if ((size_t)size > cap) return FRAME_TOO_LARGE;
    rb_skip(rb, FRAME_HEADER);
    rb_read(rb, out, (size_t)size);
    *len = (size_t)size;
    return FRAME_OK;
}
