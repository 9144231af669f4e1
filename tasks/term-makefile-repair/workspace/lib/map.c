#include "calc/map.h"
int calc_map(int x) { return x + 6; }
