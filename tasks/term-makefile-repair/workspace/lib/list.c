#include "calc/list.h"
int calc_list(int x) { return x + 13; }
