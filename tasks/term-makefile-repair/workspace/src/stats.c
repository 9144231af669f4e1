#include "stats.h"

#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void compute_stats(double *values, size_t count, struct stats *out)
{
    qsort(values, count, sizeof *values, cmp_double);
    double sum = 0;
    for (size_t i = 0; i < count; i++)
        sum += values[i];
    double mean = sum / (double)count;
    double sq = 0;
    for (size_t i = 0; i < count; i++)
        sq += (values[i] - mean) * (values[i] - mean);
    out->count = count;
    out->min = values[0];
    out->max = values[count - 1];
    out->mean = mean;
    out->median = count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
    out->stddev = sqrt(sq / (double)count);
}
