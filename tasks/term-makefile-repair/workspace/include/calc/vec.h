#ifndef CALC_VEC_H
#define CALC_VEC_H
int calc_vec(int x);
#endif
