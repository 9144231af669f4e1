#ifndef STATCALC_FORMAT_H
#define STATCALC_FORMAT_H

#include <stddef.h>
#include "stats.h"

/* Writes a one-line report ("count=... min=... ...") into buf; returns snprintf's result. */
int format_report(const struct stats *s, char *buf, size_t size);

#endif
