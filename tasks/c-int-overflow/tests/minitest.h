/* A tiny test runner for the hidden C tests: each test runs in its own child process so a
 * crash (or a sanitizer abort) fails that test only; results go to a JUnit XML file. */
/* Included last, after the workspace's headers, and guarded by the file rather than by a
 * macro a workspace header could define first. Whatever those headers defined under the
 * names the runner uses, the runner's own definitions below are the ones compiled. */
#pragma once

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#undef main
#undef CHECK
#undef CHECK_EQ
#undef CHECK_MEM
#undef RUN
#undef MT_MAX
#undef mt_fn
#undef mt_results
#undef mt_count
#undef mt_pipe_fd
#undef mt_report
#undef mt_run
#undef mt_xml_escaped
#undef mt_finish
#undef mt_unit
#undef mt_unit_call
#undef nab_unit_test
#undef nab_unit_tests
#undef mt_a
#undef mt_b
#undef mt_m
#undef printf
#undef fprintf
#undef snprintf
#undef fputs
#undef fputc
#undef fopen
#undef fclose
#undef fflush
#undef perror
#undef exit
#undef _exit
#undef fork
#undef pipe
#undef read
#undef write
#undef close
#undef waitpid
#undef alarm
#undef memcmp

#define MT_MAX 128

typedef void (*mt_fn)(void);

static struct { const char *name; int failed; char msg[512]; } mt_results[MT_MAX];
static int mt_count;
static int mt_pipe_fd = -1;

static void mt_report(const char *file, int line, const char *what) {
    char buf[512];
    int n = snprintf(buf, sizeof buf, "%s:%d: %s", file, line, what);
    if (mt_pipe_fd >= 0 && n > 0) {
        ssize_t w = write(mt_pipe_fd, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
        (void)w;
    }
    fprintf(stderr, "    %s\n", buf);
    _exit(1);
}

#define CHECK(cond) do { if (!(cond)) mt_report(__FILE__, __LINE__, "CHECK(" #cond ") failed"); } while (0)
#define CHECK_EQ(a, b) do { long long mt_a = (long long)(a), mt_b = (long long)(b); if (mt_a != mt_b) { \
    char mt_m[400]; snprintf(mt_m, sizeof mt_m, "%s == %s: got %lld, want %lld", #a, #b, mt_a, mt_b); \
    mt_report(__FILE__, __LINE__, mt_m); } } while (0)
#define CHECK_MEM(a, b, n) do { if (memcmp((a), (b), (n)) != 0) mt_report(__FILE__, __LINE__, "memory differs: " #a " vs " #b); } while (0)

static void mt_run(const char *name, mt_fn fn) {
    int fds[2];
    if (mt_count >= MT_MAX || pipe(fds) != 0) { perror("minitest"); exit(2); }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) { perror("fork"); exit(2); }
    if (pid == 0) {
        close(fds[0]);
        mt_pipe_fd = fds[1];
        alarm(20);
        fn();
        _exit(0);
    }
    close(fds[1]);
    mt_results[mt_count].name = name;
    ssize_t n = read(fds[0], mt_results[mt_count].msg, sizeof mt_results[mt_count].msg - 1);
    mt_results[mt_count].msg[n > 0 ? n : 0] = '\0';
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    /* 0 is "exited with status 0" (no wait.h macro a header could have redefined). */
    int ok = status == 0;
    if (!ok && mt_results[mt_count].msg[0] == '\0') {
        snprintf(mt_results[mt_count].msg, sizeof mt_results[mt_count].msg, "crashed (%s %d)",
                 (status & 0x7f) ? "signal" : "exit status",
                 (status & 0x7f) ? (status & 0x7f) : (status >> 8) & 0xff);
    }
    mt_results[mt_count].failed = !ok;
    printf("%s %s\n", ok ? "ok  " : "FAIL", name);
    mt_count++;
}

#define RUN(fn) mt_run(#fn, fn)

/* Tests in other units of the runner: verify.sh links every .c in /nab/tests, and each
 * extra unit adds its tests to this list before main (the harness plants one per trial,
 * see tasks/README.md, "The canary"). fn returns non-zero when the test fails. */
struct nab_unit_test { const char *name; int (*fn)(void); struct nab_unit_test *next; };
struct nab_unit_test *nab_unit_tests;
static struct nab_unit_test *mt_unit;

static void mt_unit_call(void) {
    if (mt_unit->fn() != 0) mt_report(__FILE__, __LINE__, "failed");
}

static void mt_xml_escaped(FILE *f, const char *s) {
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: if ((unsigned char)*s >= 0x20) fputc(*s, f);
        }
    }
}

static int mt_finish(const char *suite, const char *xml_path) {
    for (mt_unit = nab_unit_tests; mt_unit; mt_unit = mt_unit->next) mt_run(mt_unit->name, mt_unit_call);
    int failed = 0;
    for (int i = 0; i < mt_count; i++) failed += mt_results[i].failed;
    FILE *f = fopen(xml_path, "w");
    if (f) {
        fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"0\">\n",
                suite, mt_count, failed);
        for (int i = 0; i < mt_count; i++) {
            fprintf(f, "  <testcase classname=\"%s\" name=\"%s\"", suite, mt_results[i].name);
            if (mt_results[i].failed) {
                fputs("><failure message=\"", f);
                mt_xml_escaped(f, mt_results[i].msg);
                fputs("\"/></testcase>\n", f);
            } else {
                fputs("/>\n", f);
            }
        }
        fputs("</testsuite>\n", f);
        fclose(f);
    }
    printf("%d tests, %d failed\n", mt_count, failed);
    return failed == 0 && mt_count > 0 ? 0 : 1;
}
