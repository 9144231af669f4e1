/* The log shipper's in-memory queue: lines go in as frames, batches come out for the uplink. */
#ifndef LOGQ_H
#define LOGQ_H

#include <stddef.h>

#include "ringbuf.h"

typedef struct {
    ringbuf rb;
    unsigned long accepted;
    unsigned long dropped_full;
    unsigned long dropped_corrupt;
} logq;

int logq_init(logq *q, size_t bytes);
void logq_free(logq *q);
/* Queue one line (without its newline). Returns 0, or -1 when it was dropped. */
int logq_push(logq *q, const char *line, size_t len);
/* Move up to max_lines lines into out (NUL-separated), returns the number of lines. */
size_t logq_drain(logq *q, char *out, size_t out_cap, size_t max_lines, size_t *out_len);

#endif
