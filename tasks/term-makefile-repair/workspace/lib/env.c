#include "calc/env.h"
int calc_env(int x) { return x + 12; }
