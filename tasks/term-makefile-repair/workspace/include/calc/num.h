#ifndef CALC_NUM_H
#define CALC_NUM_H
int calc_num(int x);
#endif
