#include <stdio.h>
#include "calc/hash.h"
int main(void) {
    int got = calc_hash(1);
    if (got != 6) { printf("FAIL t_hash: %d\n", got); return 1; }
    puts("PASS t_hash");
    return 0;
}
