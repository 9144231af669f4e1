#ifndef CALC_MAP_H
#define CALC_MAP_H
#include "calc/hash.h"
int calc_map(int x);
#endif
