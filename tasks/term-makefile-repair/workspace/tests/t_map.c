#include <stdio.h>
#include "calc/map.h"
int main(void) {
    int got = calc_map(1);
    if (got != 7) { printf("FAIL t_map: %d\n", got); return 1; }
    puts("PASS t_map");
    return 0;
}
