#include <stdio.h>
#include "calc/buf.h"
int main(void) {
    int got = calc_buf(1);
    if (got != 3) { printf("FAIL t_buf: %d\n", got); return 1; }
    puts("PASS t_buf");
    return 0;
}
