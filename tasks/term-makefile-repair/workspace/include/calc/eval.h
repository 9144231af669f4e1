#ifndef CALC_EVAL_H
#define CALC_EVAL_H
#include "calc/ops.h"
#include "calc/lex.h"
int calc_eval(int x);
#endif
