#include "calc/cli.h"
int calc_cli(int x) { return x + 16; }
