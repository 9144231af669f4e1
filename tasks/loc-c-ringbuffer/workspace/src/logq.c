#include "logq.h"

#include <stdio.h>

#include "frame.h"

int logq_init(logq *q, size_t bytes) {
    q->accepted = q->dropped_full = q->dropped_corrupt = 0;
    return rb_init(&q->rb, bytes);
}

void logq_free(logq *q) { rb_free(&q->rb); }

int logq_push(logq *q, const char *line, size_t len) {
    int rc = frame_put(&q->rb, line, len);
    if (rc == FRAME_OK) {
        q->accepted++;
        return 0;
    }
    q->dropped_full++;
    return -1;
}

size_t logq_drain(logq *q, char *out, size_t out_cap, size_t max_lines, size_t *out_len) {
    size_t lines = 0, off = 0;
    while (lines < max_lines) {
        long next = frame_next_size(&q->rb);
        if (next == FRAME_EMPTY) break;
        if (next < 0) {
            /* The stream is out of step and cannot be resynchronised: drop what is queued. */
            fprintf(stderr, "logq: corrupt frame header, dropping %zu queued bytes\n", rb_used(&q->rb));
            q->dropped_corrupt++;
            rb_skip(&q->rb, rb_used(&q->rb));
            break;
        }
        if (off + (size_t)next + 1 > out_cap) break;
        size_t got = 0;
        if (frame_take(&q->rb, out + off, out_cap - off - 1, &got) != FRAME_OK) break;
        off += got;
        out[off++] = '\0';
        lines++;
    }
    *out_len = off;
    return lines;
}
