#ifndef CALC_ERR_H
#define CALC_ERR_H
int calc_err(int x);
#endif
