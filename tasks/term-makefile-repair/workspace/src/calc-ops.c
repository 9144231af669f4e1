#include <stdio.h>
#include "calc/ops.h"
int main(void) {
    const char *names[] = CALC_OP_NAMES;
    for (int i = 0; i < CALC_OP_COUNT; i++) puts(names[i]);
    return 0;
}
