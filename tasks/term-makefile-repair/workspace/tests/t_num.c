#include <stdio.h>
#include "calc/num.h"
int main(void) {
    int got = calc_num(1);
    if (got != 8) { printf("FAIL t_num: %d\n", got); return 1; }
    puts("PASS t_num");
    return 0;
}
