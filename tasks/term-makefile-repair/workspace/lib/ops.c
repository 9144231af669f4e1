#include "calc/ops.h"
int calc_op_count(void) { return CALC_OP_COUNT; }
int calc_ops(int x) { return x + CALC_OP_COUNT; }
