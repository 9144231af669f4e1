/* logship: reads log lines on stdin, queues them, and "ships" them in batches to stdout.
 *   logship [QUEUE_BYTES] [BATCH_LINES]
 * Each shipped batch is printed as "batch N: <line> | <line> ...". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logq.h"

int main(int argc, char **argv) {
    size_t qbytes = argc > 1 ? strtoul(argv[1], NULL, 10) : 256;
    size_t batch = argc > 2 ? strtoul(argv[2], NULL, 10) : 3;
    logq q;
    if (logq_init(&q, qbytes) != 0) {
        fprintf(stderr, "logship: cannot allocate a %zu-byte queue\n", qbytes);
        return 1;
    }
    char line[4096];
    char out[16384];
    int batch_no = 0;
    for (;;) {
        int eof = fgets(line, sizeof line, stdin) == NULL;
        if (!eof) {
            size_t n = strcspn(line, "\n");
            logq_push(&q, line, n);
        }
        if (eof || q.accepted % batch == 0) {
            size_t len = 0;
            size_t got = logq_drain(&q, out, sizeof out, batch, &len);
            if (got) {
                printf("batch %d:", ++batch_no);
                for (size_t off = 0; off < len; off += strlen(out + off) + 1) printf(" %s |", out + off);
                printf("\n");
            }
        }
        if (eof && rb_used(&q.rb) == 0) break;
    }
    fprintf(stderr, "accepted=%lu dropped_full=%lu dropped_corrupt=%lu\n", q.accepted, q.dropped_full, q.dropped_corrupt);
    logq_free(&q);
    return 0;
}
