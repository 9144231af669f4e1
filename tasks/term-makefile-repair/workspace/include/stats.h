#ifndef STATCALC_STATS_H
#define STATCALC_STATS_H

#include <stddef.h>

struct stats {
    size_t count;
    double min, max, mean, median, stddev;
};

/* Computes summary statistics of values[0..count). Sorts `values` in place.
 * count must be at least 1. stddev is the population standard deviation. */
void compute_stats(double *values, size_t count, struct stats *out);

#endif
