#include "calc/vec.h"
int calc_vec(int x) { return x + 4; }
