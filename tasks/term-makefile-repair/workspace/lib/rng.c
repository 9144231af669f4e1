#include "calc/rng.h"
int calc_rng(int x) { return x + 17; }
