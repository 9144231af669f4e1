#ifndef STATCALC_PARSE_H
#define STATCALC_PARSE_H

#include <stddef.h>
#include <stdio.h>

/* Reads one number per line from `in`. Blank lines and lines starting with '#' are
 * skipped. On success returns 0 and stores a malloc'd array in *values (caller frees).
 * On a malformed line returns its 1-based line number. Returns -1 on allocation failure. */
long parse_numbers(FILE *in, double **values, size_t *count);

#endif
