#include <stdio.h>
#include "calc/util.h"
#include "calc/map.h"
int main(void) { printf("calc %d.%d\n", calc_util(0) - 14, calc_map(0) - 6); return 0; }
