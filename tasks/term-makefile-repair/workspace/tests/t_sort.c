#include <stdio.h>
#include "calc/sort.h"
int main(void) {
    int got = calc_sort(1);
    if (got != 15) { printf("FAIL t_sort: %d\n", got); return 1; }
    puts("PASS t_sort");
    return 0;
}
