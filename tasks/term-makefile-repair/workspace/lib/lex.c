#include "calc/lex.h"
int calc_lex(int x) { return x + 8; }
