#include "format.h"

#include <stdio.h>

int format_report(const struct stats *s, char *buf, size_t size)
{
    return snprintf(buf, size, "count=%zu min=%.3f max=%.3f mean=%.3f median=%.3f stddev=%.3f",
                    s->count, s->min, s->max, s->mean, s->median, s->stddev);
}
