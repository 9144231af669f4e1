#ifndef CALC_HASH_H
#define CALC_HASH_H
int calc_hash(int x);
#endif
