#include <stdio.h>
#include "calc/str.h"
int main(void) {
    int got = calc_str(1);
    if (got != 4) { printf("FAIL t_str: %d\n", got); return 1; }
    puts("PASS t_str");
    return 0;
}
