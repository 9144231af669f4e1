#ifndef CALC_SORT_H
#define CALC_SORT_H
int calc_sort(int x);
#endif
