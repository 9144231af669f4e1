#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "../src/pathcheck.h"
#include "../src/sanitize.h"
#include "../src/utf8.h"

int main(void) {
    const uint8_t hello[] = "h\xc3\xa9llo \xe2\x82\xac \xf0\x9f\x98\x80";
    assert(utf8_validate(hello, sizeof hello - 1) == (size_t)-1);
    assert(utf8_count(hello, sizeof hello - 1) == 9);
    uint8_t buf[4];
    assert(utf8_encode(0x20AC, buf) == 3 && memcmp(buf, "\xe2\x82\xac", 3) == 0);
    assert(path_check((const uint8_t *)"a/../b", 6) == PATH_TRAVERSAL);
    assert(path_check((const uint8_t *)"docs/r\xc3\xa9sum\xc3\xa9.pdf", 16) == PATH_OK);
    puts("utf8 tests passed");
    return 0;
}
