#ifndef CALC_BUF_H
#define CALC_BUF_H
int calc_buf(int x);
#endif
