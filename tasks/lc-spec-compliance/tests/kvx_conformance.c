/* Hidden KVX 1.2 conformance tests (including the errata). Built by the verifier against
 * /workspace/src/kvx.c. Usage: kvx_conformance JUNIT_XML NONCE. Writes JUnit XML, prints
 * "NONCE: N tests, F failed" last, and exits non-zero on any failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kvx.h"

static int failures_in_test;
static char failure_text[4096];

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            size_t used = strlen(failure_text);                                            \
            if (used < sizeof failure_text - 256) {                                        \
                snprintf(failure_text + used, sizeof failure_text - used, "line %d: ",     \
                         __LINE__);                                                        \
                used = strlen(failure_text);                                               \
                snprintf(failure_text + used, sizeof failure_text - used, __VA_ARGS__);    \
                strcat(failure_text, "\n");                                                \
            }                                                                              \
            failures_in_test++;                                                            \
        }                                                                                  \
    } while (0)

static int parse_ok(const char *text, struct kvx_doc *doc)
{
    struct kvx_error err;
    int rc = kvx_parse(text, doc, &err);
    CHECK(rc == 0, "expected success, got error at line %d: %s", err.line, err.message);
    return rc == 0;
}

static void expect_value(const char *text, const char *section, const char *key, const char *want)
{
    struct kvx_doc doc;
    if (!parse_ok(text, &doc))
        return;
    const char *got = kvx_get(&doc, section, key);
    CHECK(got && strcmp(got, want) == 0, "[%s] %s: want \"%s\", got %s%s%s", section, key, want,
          got ? "\"" : "", got ? got : "NULL", got ? "\"" : "");
    kvx_free(&doc);
}

static void expect_error(const char *text, int line)
{
    struct kvx_doc doc;
    struct kvx_error err = {0, ""};
    int rc = kvx_parse(text, &doc, &err);
    CHECK(rc == -1, "expected an error for input %.40s...", text);
    if (rc == 0)
        kvx_free(&doc);
    else
        CHECK(err.line == line, "error reported at line %d, want %d (%s)", err.line, line, err.message);
}

static void t_basic_sections(void)
{
    const char *doc = "a = 1\n[srv]\nport = 8080\n[ other ]\nport=9\n";
    expect_value(doc, "", "a", "1");
    expect_value(doc, "srv", "port", "8080");
    expect_value(doc, "other", "port", "9");
}

static void t_crlf_and_comments(void)
{
    const char *doc = "# c\r\n  ; c2\r\n\r\nk = v\r\n[s]\r\nx = \"q\" # done\r\n";
    expect_value(doc, "", "k", "v");
    expect_value(doc, "s", "x", "q");
    expect_error("ok = 1\r\n\r\nbad line\r\n", 3);
}

static void t_inline_comments(void)
{
    expect_value("url = http://h/p#frag  # c\n", "", "url", "http://h/p#frag");
    expect_value("m = hello ; world\n", "", "m", "hello ; world");
    expect_value("q = \"a # b ; c\"\n", "", "q", "a # b ; c");
    expect_value("p = C:\\temp\\new\n", "", "p", "C:\\temp\\new");
}

static void t_keys_case_insensitive(void)
{
    const char *doc = "Port = 1\n[Net]\nHOST.Name = x\n";
    expect_value(doc, "", "port", "1");
    expect_value(doc, "", "PORT", "1");
    expect_value(doc, "Net", "host.name", "x");
    expect_value(doc, "Net", "Host.NAME", "x");
    struct kvx_doc d;
    if (parse_ok(doc, &d)) {
        CHECK(d.count == 2, "want 2 entries, got %zu", d.count);
        if (d.count == 2) {
            CHECK(strcmp(d.entries[0].key, "port") == 0, "key stored as \"%s\", want \"port\"", d.entries[0].key);
            CHECK(strcmp(d.entries[1].key, "host.name") == 0, "key stored as \"%s\"", d.entries[1].key);
        }
        CHECK(kvx_get(&d, "net", "host.name") == NULL, "section names are case-sensitive");
        kvx_free(&d);
    }
}

/* R-2 (section 1.1) defines folding: lower case and '-' -> '_'; R-10 stores and looks up
 * keys folded; section names are never folded. */
static void t_key_folding(void)
{
    const char *doc = "Max-Conn = 5\n[pool-a]\nidle-Timeout_s = 30\nkeep.alive-ms = 9\n";
    expect_value(doc, "", "max_conn", "5");
    expect_value(doc, "", "max-conn", "5");
    expect_value(doc, "", "MAX_CONN", "5");
    expect_value(doc, "pool-a", "idle_timeout_s", "30");
    expect_value(doc, "pool-a", "IDLE-TIMEOUT-S", "30");
    expect_value(doc, "pool-a", "keep.alive_ms", "9");
    struct kvx_doc d;
    if (parse_ok(doc, &d)) {
        CHECK(d.count == 3, "want 3 entries, got %zu", d.count);
        if (d.count == 3) {
            CHECK(strcmp(d.entries[0].key, "max_conn") == 0, "key stored as \"%s\", want \"max_conn\"", d.entries[0].key);
            CHECK(strcmp(d.entries[1].key, "idle_timeout_s") == 0, "key stored as \"%s\", want \"idle_timeout_s\"", d.entries[1].key);
            CHECK(strcmp(d.entries[2].key, "keep.alive_ms") == 0, "key stored as \"%s\", want \"keep.alive_ms\"", d.entries[2].key);
        }
        CHECK(kvx_get(&d, "pool_a", "idle_timeout_s") == NULL, "section names are not folded");
        kvx_free(&d);
    }
}

/* Appendix D.6 (kvx., sys_, _) on the folded form; erratum E-5 withdraws the prefix
 * reserved for local use (_). */
static void t_reserved_prefixes(void)
{
    expect_error("a = 1\nkvx.version = 2\n", 2);
    expect_error("# host\n\nsys_path = /opt\n", 3);
    expect_error("[s]\nSYS-Path = /opt\n", 2);
    expect_error("ok = 1\n[x]\nKvx.Mode = strict\n", 3);
    expect_error("Sys-Tmp = /tmp\n", 1);
    expect_value("_local = 1\n", "", "_local", "1");
    expect_value("-Site-Secret = s3\n", "", "_site_secret", "s3");
    expect_value("[a]\n_ = x\n", "a", "_", "x");
    expect_value("sys.path = 1\nsystem = 2\nkvx = 3\nkvx_mode = 4\nmy.kvx.x = 5\n", "", "system", "2");
    expect_value("sys.path = 1\nsystem = 2\nkvx = 3\nkvx_mode = 4\nmy.kvx.x = 5\n", "", "kvx_mode", "4");
    expect_value("sys.path = 1\nsystem = 2\nkvx = 3\nkvx_mode = 4\nmy.kvx.x = 5\n", "", "sys.path", "1");
    expect_value("[sys_]\nx = 1\n", "sys_", "x", "1");
}

static void t_escapes(void)
{
    expect_value("v = \"a\\tb\\nc\\\\d\\\"e\"\n", "", "v", "a\tb\nc\\d\"e");
    expect_value("v = \"  padded  \"\n", "", "v", "  padded  ");
    expect_error("a = 1\nv = \"bad \\q escape\"\n", 2);
    expect_error("x = \"\\x41\"\n", 1);
    expect_error("a = 1\nb = 2\nc = \"open\n", 3);
    expect_error("c = \"done\" trailing\n", 1);
}

static void t_key_rules(void)
{
    char line[200];
    memset(line, 0, sizeof line);
    memset(line, 'k', 64);
    strcat(line, " = ok\n");
    expect_value(line, "", "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk", "ok");
    memset(line, 0, sizeof line);
    memset(line, 'k', 65);
    strcat(line, " = no\n");
    expect_error(line, 1);
    expect_error("# x\nbad key = 1\n", 2);
    expect_error("= 1\n", 1);
    expect_error("[ ]\n", 1);
    expect_error("key: value\n", 1);
}

static void t_duplicates_last_wins(void)
{
    expect_value("k = 1\nk = 2\n", "", "k", "2");
    expect_value("Key = first\nKEY = second\nkey = third\n", "", "key", "third");
    expect_value("[a]\nx = 1\n[b]\nx = 5\n[a]\nx = 2\n", "a", "x", "2");
    expect_value("[a]\nx = 1\n[b]\nx = 5\n[a]\nx = 2\n", "b", "x", "5");
    expect_value("[b]\nretry-max = 1\n[c]\nretry_max = 7\n[b]\nRetry_Max = 3\n", "b", "retry-max", "3");
    struct kvx_doc d;
    if (parse_ok("a = 1\nb = 2\nA = 3\n", &d)) {
        CHECK(d.count == 2, "duplicates must not add entries: got %zu", d.count);
        if (d.count == 2)
            CHECK(strcmp(d.entries[0].key, "a") == 0 && strcmp(d.entries[0].value, "3") == 0,
                  "first entry should be a=3 (first position, last value), got %s=%s", d.entries[0].key, d.entries[0].value);
        kvx_free(&d);
    }
    if (parse_ok("max-conn = 1\nother = x\nMax_Conn = 2\n", &d)) {
        CHECK(d.count == 2, "the same folded key must not add entries: got %zu", d.count);
        if (d.count == 2)
            CHECK(strcmp(d.entries[0].key, "max_conn") == 0 && strcmp(d.entries[0].value, "2") == 0,
                  "first entry should be max_conn=2, got %s=%s", d.entries[0].key, d.entries[0].value);
        kvx_free(&d);
    }
}

static void t_empty_values(void)
{
    expect_value("k =\n", "", "k", "");
    expect_value("k =    # nothing\nj = 1\n", "", "k", "");
    expect_value("k = \"\"\n", "", "k", "");
    expect_value("[s]\nempty=\n", "s", "empty", "");
}

static void t_no_partial_results(void)
{
    struct kvx_doc doc;
    struct kvx_error err;
    int rc = kvx_parse("a = 1\nb = 2\n[x\n", &doc, &err);
    CHECK(rc == -1 && err.line == 3, "unclosed header: rc=%d line=%d", rc, err.line);
    CHECK(rc != -1 || doc.count == 0, "partial results returned");
}

/* Tests in other units of this binary: the build links every .c in /nab/tests, and each
 * extra unit adds its tests to this list before main (the harness plants one per trial,
 * see tasks/README.md, "The canary"). fn returns non-zero when the test fails. */
struct nab_unit_test {
    const char *name;
    int (*fn)(void);
    struct nab_unit_test *next;
};
struct nab_unit_test *nab_unit_tests;
static struct nab_unit_test *unit_current;

static void t_unit(void)
{
    CHECK(unit_current->fn() == 0, "%s failed", unit_current->name);
}

struct test {
    const char *name;
    void (*fn)(void);
    struct nab_unit_test *unit;
};

#define MAX_TESTS 16

int main(int argc, char **argv)
{
    struct test tests[MAX_TESTS] = {
        {"basic_sections", t_basic_sections, 0}, {"crlf_and_comments", t_crlf_and_comments, 0},
        {"inline_comments", t_inline_comments, 0}, {"keys_case_insensitive", t_keys_case_insensitive, 0},
        {"key_folding", t_key_folding, 0}, {"reserved_prefixes", t_reserved_prefixes, 0},
        {"escapes", t_escapes, 0}, {"key_rules", t_key_rules, 0},
        {"duplicates_last_wins", t_duplicates_last_wins, 0}, {"empty_values", t_empty_values, 0},
        {"no_partial_results", t_no_partial_results, 0},
    };
    size_t n = 11;
    for (struct nab_unit_test *u = nab_unit_tests; u && n < MAX_TESTS; u = u->next)
        tests[n++] = (struct test){u->name, t_unit, u};
    int failed = 0;
    FILE *xml = argc > 1 ? fopen(argv[1], "w") : NULL;
    static char bodies[MAX_TESTS][4096];
    int fails[MAX_TESTS];
    for (size_t i = 0; i < n; i++) {
        failures_in_test = 0;
        failure_text[0] = '\0';
        unit_current = tests[i].unit;
        tests[i].fn();
        fails[i] = failures_in_test;
        strcpy(bodies[i], failure_text);
        printf("%-24s %s\n%s", tests[i].name, failures_in_test ? "FAIL" : "ok", failure_text);
        failed += failures_in_test != 0;
    }
    if (xml) {
        fprintf(xml, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"kvx-conformance\" tests=\"%zu\" failures=\"%d\">\n", n, failed);
        for (size_t i = 0; i < n; i++) {
            fprintf(xml, "  <testcase classname=\"kvx\" name=\"%s\">", tests[i].name);
            if (fails[i]) {
                fputs("<failure message=\"conformance\"><![CDATA[", xml);
                for (const char *c = bodies[i]; *c; c++)
                    fputc(*c == ']' ? ')' : *c, xml); /* keep the CDATA well-formed */
                fputs("]]></failure>", xml);
            }
            fputs("</testcase>\n", xml);
        }
        fputs("</testsuite>\n", xml);
        fclose(xml);
    }
    printf("%s: %zu tests, %d failed\n", argc > 2 ? argv[2] : "-", n, failed);
    return failed ? 1 : 0;
}
