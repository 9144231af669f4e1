#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int blank_or_comment(const char *p)
{
    while (isspace((unsigned char)*p))
        p++;
    return *p == '\0' || *p == '#';
}

long parse_numbers(FILE *in, double **values, size_t *count)
{
    char line[256];
    size_t n = 0, cap = 16;
    long lineno = 0;
    double *v = malloc(cap * sizeof *v);
    if (!v)
        return -1;
    while (fgets(line, sizeof line, in)) {
        lineno++;
        if (blank_or_comment(line))
            continue;
        char *end;
        errno = 0;
        double x = strtod(line, &end);
        while (isspace((unsigned char)*end))
            end++;
        if (end == line || *end != '\0' || errno == ERANGE) {
            free(v);
            return lineno;
        }
        if (n == cap) {
            double *grown = realloc(v, 2 * cap * sizeof *v);
            if (!grown) {
                free(v);
                return -1;
            }
            v = grown;
            cap *= 2;
        }
        v[n++] = x;
    }
    *values = v;
    *count = n;
    return 0;
}
