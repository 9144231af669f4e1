#include "calc/str.h"
int calc_str(int x) { return x + 3; }
