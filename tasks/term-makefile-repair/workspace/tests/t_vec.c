#include <stdio.h>
#include "calc/vec.h"
int main(void) {
    int got = calc_vec(1);
    if (got != 5) { printf("FAIL t_vec: %d\n", got); return 1; }
    puts("PASS t_vec");
    return 0;
}
