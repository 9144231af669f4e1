#ifndef CALC_LEX_H
#define CALC_LEX_H
#include "calc/str.h"
int calc_lex(int x);
#endif
