#include "calc/fmt.h"
int calc_fmt(int x) { return x + 11; }
