#include <stdio.h>
#include "calc/eval.h"
int main(void) {
    int got = calc_eval(1);
    if (got != 11) { printf("FAIL t_eval: %d\n", got); return 1; }
    puts("PASS t_eval");
    return 0;
}
