#include <stdio.h>
#include <stdlib.h>
#include "calc/eval.h"
#include "calc/cli.h"
int main(int argc, char **argv) {
    int x = argc > 1 ? atoi(argv[1]) : 0;
    printf("%d\n", calc_eval(x) + calc_cli(0) - calc_cli(0));
    return 0;
}
