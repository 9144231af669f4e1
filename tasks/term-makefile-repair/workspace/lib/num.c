#include "calc/num.h"
int calc_num(int x) { return x + 7; }
