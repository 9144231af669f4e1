#include "calc/sort.h"
int calc_sort(int x) { return x + 14; }
