#ifndef CALC_SPAN_H
#define CALC_SPAN_H
#include "calc/vec.h"
#include "calc/rng.h"
int calc_span(int x);
#endif
