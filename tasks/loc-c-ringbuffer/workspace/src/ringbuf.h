/* A fixed-capacity byte ring buffer. Not thread-safe: the caller holds the queue lock. */
#ifndef RINGBUF_H
#define RINGBUF_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint8_t *buf;
    size_t cap;   /* bytes of storage */
    size_t head;  /* next byte to write */
    size_t tail;  /* next byte to read */
    size_t used;  /* bytes stored */
} ringbuf;

int rb_init(ringbuf *rb, size_t cap);
void rb_free(ringbuf *rb);
size_t rb_used(const ringbuf *rb);
size_t rb_space(const ringbuf *rb);
/* Append len bytes; all or nothing. Returns 0, or -1 when there is not enough space. */
int rb_write(ringbuf *rb, const void *data, size_t len);
/* Copy out and consume len bytes. Returns 0, or -1 when fewer are stored. */
int rb_read(ringbuf *rb, void *out, size_t len);
/* Copy len bytes from the front without consuming them. Returns 0, or -1 when fewer are stored. */
int rb_peek(const ringbuf *rb, void *out, size_t len);
/* Drop len bytes from the front. Returns 0, or -1 when fewer are stored. */
int rb_skip(ringbuf *rb, size_t len);

#endif
