#include "calc/util.h"
int calc_util(int x) { return x + 15; }
