#include "ringbuf.h"

#include <stdlib.h>
#include <string.h>

int rb_init(ringbuf *rb, size_t cap) {
    if (cap == 0) return -1;
    rb->buf = malloc(cap);
    if (!rb->buf) return -1;
    rb->cap = cap;
    rb->head = rb->tail = rb->used = 0;
    return 0;
}

void rb_free(ringbuf *rb) {
    free(rb->buf);
    rb->buf = NULL;
    rb->cap = rb->head = rb->tail = rb->used = 0;
}

size_t rb_used(const ringbuf *rb) { return rb->used; }

size_t rb_space(const ringbuf *rb) { return rb->cap - rb->used; }

int rb_write(ringbuf *rb, const void *data, size_t len) {
    if (len > rb_space(rb)) return -1;
    const uint8_t *src = data;
    size_t first = rb->cap - rb->head;
    if (first > len) first = len;
    memcpy(rb->buf + rb->head, src, first);
    memcpy(rb->buf, src + first, len - first);
    rb->head = (rb->head + len) % rb->cap;
    rb->used += len;
    return 0;
}

int rb_read(ringbuf *rb, void *out, size_t len) {
    if (len > rb->used) return -1;
    uint8_t *dst = out;
    size_t first = rb->cap - rb->tail;
    if (first > len) first = len;
    memcpy(dst, rb->buf + rb->tail, first);
    memcpy(dst + first, rb->buf, len - first);
    rb->tail = (rb->tail + len) % rb->cap;
    rb->used -= len;
    return 0;
}

int rb_peek(const ringbuf *rb, void *out, size_t len) {
    if (len > rb->used) return -1;
    size_t first = rb->cap - rb->tail;
    if (first > len) first = len;
    memcpy(out, rb->buf + rb->tail, first);
    return 0;
}

int rb_skip(ringbuf *rb, size_t len) {
    if (len > rb->used) return -1;
    rb->tail = (rb->tail + len) % rb->cap;
    rb->used -= len;
    return 0;
}
