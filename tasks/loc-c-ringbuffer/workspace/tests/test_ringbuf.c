/* Unit tests for the ring buffer: make test */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "../src/crc32.h"
#include "../src/ringbuf.h"

int main(void) {
    ringbuf rb;
    assert(rb_init(&rb, 8) == 0);
    assert(rb_write(&rb, "abcdef", 6) == 0);
    char out[8] = {0};
    assert(rb_read(&rb, out, 4) == 0 && memcmp(out, "abcd", 4) == 0);
    assert(rb_write(&rb, "ghijk", 5) == 0);   /* wraps */
    assert(rb_used(&rb) == 7);
    assert(rb_read(&rb, out, 7) == 0 && memcmp(out, "efghijk", 7) == 0);
    assert(rb_write(&rb, "123456789", 9) == -1);
    rb_free(&rb);
    assert(crc32_update(0, "123456789", 9) == 0xCBF43926u);
    puts("ringbuf tests passed");
    return 0;
}
