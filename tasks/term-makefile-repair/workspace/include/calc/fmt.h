#ifndef CALC_FMT_H
#define CALC_FMT_H
#include "calc/buf.h"
int calc_fmt(int x);
#endif
