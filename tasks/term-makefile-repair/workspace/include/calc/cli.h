#ifndef CALC_CLI_H
#define CALC_CLI_H
#include "calc/fmt.h"
#include "calc/env.h"
int calc_cli(int x);
#endif
