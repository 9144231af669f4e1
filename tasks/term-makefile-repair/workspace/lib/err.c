#include "calc/err.h"
int calc_err(int x) { return x + 1; }
