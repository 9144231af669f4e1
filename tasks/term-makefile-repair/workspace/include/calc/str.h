#ifndef CALC_STR_H
#define CALC_STR_H
int calc_str(int x);
#endif
