/* Length-prefixed frames over a ring buffer: 4-byte big-endian length, then the payload.
 * The queue stores whole frames only; readers take one complete frame at a time. */
#ifndef FRAME_H
#define FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "ringbuf.h"

#define FRAME_HEADER 4
#define FRAME_MAX_PAYLOAD 4096

enum frame_status { FRAME_OK = 0, FRAME_FULL = -1, FRAME_TOO_LARGE = -2, FRAME_CORRUPT = -3, FRAME_EMPTY = -4 };

int frame_put(ringbuf *rb, const void *payload, size_t len);
/* Takes the next frame into out (capacity cap); *len gets its size. */
int frame_take(ringbuf *rb, void *out, size_t cap, size_t *len);
/* Size of the next frame's payload without taking it, or a negative frame_status. */
long frame_next_size(const ringbuf *rb);

#endif
