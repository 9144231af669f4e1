#include "calc/hash.h"
int calc_hash(int x) { return x + 5; }
