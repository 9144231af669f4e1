#include "calc/span.h"
int calc_span(int x) { return x + 18; }
