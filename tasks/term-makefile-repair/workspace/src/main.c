/* statcalc: summary statistics for a column of numbers (a file, or stdin). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "parse.h"
#include "stats.h"

int main(int argc, char **argv)
{
    if (argc > 2 || (argc == 2 && strcmp(argv[1], "--help") == 0)) {
        fprintf(stderr, "usage: statcalc [FILE]\n");
        return 2;
    }
    FILE *in = stdin;
    if (argc == 2 && strcmp(argv[1], "-") != 0) {
        in = fopen(argv[1], "r");
        if (!in) {
            perror(argv[1]);
            return 1;
        }
    }
    double *values = NULL;
    size_t count = 0;
    long bad = parse_numbers(in, &values, &count);
    if (in != stdin)
        fclose(in);
    if (bad != 0) {
        if (bad < 0)
            fprintf(stderr, "statcalc: out of memory\n");
        else
            fprintf(stderr, "statcalc: line %ld: not a number\n", bad);
        return 1;
    }
    if (count == 0) {
        fprintf(stderr, "statcalc: no numbers\n");
        free(values);
        return 1;
    }
    struct stats s;
    char line[512];
    compute_stats(values, count, &s);
    format_report(&s, line, sizeof line);
    puts(line);
    free(values);
    return 0;
}
