#ifndef CALC_LIST_H
#define CALC_LIST_H
int calc_list(int x);
#endif
