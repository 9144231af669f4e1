#ifndef CALC_RNG_H
#define CALC_RNG_H
int calc_rng(int x);
#endif
