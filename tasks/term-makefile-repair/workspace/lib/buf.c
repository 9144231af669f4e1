#include "calc/buf.h"
int calc_buf(int x) { return x + 2; }
