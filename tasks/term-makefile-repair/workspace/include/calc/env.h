#ifndef CALC_ENV_H
#define CALC_ENV_H
int calc_env(int x);
#endif
