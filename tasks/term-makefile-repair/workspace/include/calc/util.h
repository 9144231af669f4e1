#ifndef CALC_UTIL_H
#define CALC_UTIL_H
int calc_util(int x);
#endif
