#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pathcheck.h"
#include "sanitize.h"
#include "utf8.h"
/* Last: the runner wins over anything the workspace headers defined. */
#include "minitest.h"

/* Decode from an exactly-sized heap copy so any read past len is caught by ASan. */
static int decode_exact(const char *bytes, size_t len, uint32_t *cp) {
    uint8_t *b = malloc(len ? len : 1);
    memcpy(b, bytes, len);
    int n = utf8_decode(b, len, cp);
    free(b);
    return n;
}

struct vec { const char *bytes; size_t len; uint32_t cp; };

static void valid_boundaries(void) {
    static const struct vec ok[] = {
        {"\x00", 1, 0x0}, {"\x7f", 1, 0x7F}, {"\xc2\x80", 2, 0x80}, {"\xdf\xbf", 2, 0x7FF},
        {"\xe0\xa0\x80", 3, 0x800}, {"\xed\x9f\xbf", 3, 0xD7FF}, {"\xee\x80\x80", 3, 0xE000},
        {"\xef\xbf\xbd", 3, 0xFFFD}, {"\xef\xbf\xbf", 3, 0xFFFF}, {"\xf0\x90\x80\x80", 4, 0x10000},
        {"\xf3\xbf\xbf\xbf", 4, 0xFFFFF}, {"\xf4\x8f\xbf\xbf", 4, 0x10FFFF},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        uint32_t cp = 0xDEAD;
        CHECK_EQ(decode_exact(ok[i].bytes, ok[i].len, &cp), (long long)ok[i].len);
        CHECK_EQ(cp, ok[i].cp);
    }
}

static void rejects(const char *bytes, size_t len) {
    uint32_t cp;
    int n = decode_exact(bytes, len, &cp);
    if (n != -1) {
        fprintf(stderr, "    accepted:");
        for (size_t i = 0; i < len; i++) fprintf(stderr, " %02X", (unsigned char)bytes[i]);
        fprintf(stderr, " -> %d bytes, U+%04X\n", n, cp);
    }
    CHECK_EQ(n, -1);
}

static void overlong_forms_rejected(void) {
    rejects("\xc0\x80", 2);
    rejects("\xc0\xaf", 2);
    rejects("\xc1\xbf", 2);
    rejects("\xe0\x80\x80", 3);
    rejects("\xe0\x80\xaf", 3);
    rejects("\xe0\x9f\xbf", 3);
    rejects("\xf0\x80\x80\x80", 4);
    rejects("\xf0\x80\x80\xaf", 4);
    rejects("\xf0\x8f\xbf\xbf", 4);
}

static void surrogates_rejected(void) {
    rejects("\xed\xa0\x80", 3);
    rejects("\xed\xad\xbf", 3);
    rejects("\xed\xb0\x80", 3);
    rejects("\xed\xbf\xbf", 3);
}

static void beyond_max_rejected(void) {
    rejects("\xf4\x90\x80\x80", 4);
    rejects("\xf7\xbf\xbf\xbf", 4);
    rejects("\xf5\x80\x80\x80", 4);
    rejects("\xf8\x88\x80\x80\x80", 5);
    rejects("\xfe", 1);
    rejects("\xff", 1);
}

static void bad_continuations_rejected(void) {
    rejects("\x80", 1);
    rejects("\xbf", 1);
    rejects("\xc3\x28", 2);
    rejects("\xe2\x28\xa1", 3);
    rejects("\xe2\x82\x28", 3);
    rejects("\xf0\x28\x8c\xbc", 4);
    rejects("\xf0\x90\x28\xbc", 4);
    rejects("\xf0\x90\x8c\xc0", 4);
    rejects("\xc3\xc3", 2);
}

static void truncated_sequences_rejected_without_overread(void) {
    rejects("\xc3", 1);
    rejects("\xe2\x82", 2);
    rejects("\xe2", 1);
    rejects("\xf0\x9f\x98", 3);
    rejects("\xf0\x9f", 2);
    uint32_t cp;
    CHECK_EQ(decode_exact("", 0, &cp), 0);
    /* A valid sequence cut by len inside a longer buffer is still cut. */
    const uint8_t euro[] = {0xE2, 0x82, 0xAC};
    CHECK_EQ(utf8_decode(euro, 2, &cp), -1);
    CHECK_EQ(utf8_decode(euro, 3, &cp), 3);
    CHECK_EQ(cp, 0x20AC);
}

static void validate_reports_first_error_offset(void) {
    struct { const char *s; size_t len; size_t at; } cases[] = {
        {"plain", 5, (size_t)-1},
        {"caf\xc3\xa9", 5, (size_t)-1},
        {"..\xc0\xaf..", 6, 2},
        {"ab\xed\xa0\x80", 5, 2},
        {"\xf0\x9f\x98\x80x\xf4\x90\x80\x80", 9, 5},
        {"ok\xe2\x82", 4, 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t *b = malloc(cases[i].len);
        memcpy(b, cases[i].s, cases[i].len);
        CHECK_EQ((long long)utf8_validate(b, cases[i].len), (long long)cases[i].at);
        free(b);
    }
    CHECK_EQ((long long)utf8_count((const uint8_t *)"\xc0\x80", 2), -1LL);
    CHECK_EQ(utf8_count((const uint8_t *)"a\xc3\xa9\xf4\x8f\xbf\xbf", 7), 3);
}

static void every_scalar_round_trips(void) {
    uint8_t buf[4];
    for (uint32_t cp = 0; cp <= 0x10FFFF; cp++) {
        int n = utf8_encode(cp, buf);
        if (cp >= 0xD800 && cp <= 0xDFFF) {
            CHECK_EQ(n, 0);
            continue;
        }
        CHECK(n >= 1 && n <= 4);
        uint32_t back = 0xFFFFFFFF;
        CHECK_EQ(utf8_decode(buf, (size_t)n, &back), n);
        CHECK_EQ(back, cp);
    }
    CHECK_EQ(utf8_encode(0x110000, buf), 0);
}

static void sanitize_replaces_each_bad_byte(void) {
    struct { const char *in; size_t len; const char *out; } cases[] = {
        {"A\xe2\x82", 3, "A\xef\xbf\xbd\xef\xbf\xbd"},
        {"\xc0\xaf", 2, "\xef\xbf\xbd\xef\xbf\xbd"},
        {"x\xed\xa0\x80y", 5, "x\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbdy"},
        {"\xf4\x90\x80\x80", 4, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},
        {"\xe2\x28\xa1", 3, "\xef\xbf\xbd(\xef\xbf\xbd"},
        {"ok \xe2\x82\xac", 6, "ok \xe2\x82\xac"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t *in = malloc(cases[i].len);
        memcpy(in, cases[i].in, cases[i].len);
        uint8_t out[64];
        size_t n = utf8_sanitize(in, cases[i].len, out);
        free(in);
        CHECK_EQ(n, strlen(cases[i].out));
        CHECK_MEM(out, cases[i].out, n);
    }
}

static void paths_with_disguised_dots_rejected(void) {
    CHECK_EQ(path_check((const uint8_t *)"..\xc0\xaf..\xc0\xaf" "etc/passwd", 18), PATH_BAD_UTF8);
    CHECK_EQ(path_check((const uint8_t *)"a/\xe0\x80\xae\xe0\x80\xae/b", 10), PATH_BAD_UTF8);
    CHECK_EQ(path_check((const uint8_t *)"a/../b", 6), PATH_TRAVERSAL);
    CHECK_EQ(path_check((const uint8_t *)"photos/\xf0\x9f\x93\xb7.jpg", 15), PATH_OK);
}

int main(int argc, char **argv) {
    RUN(valid_boundaries);
    RUN(overlong_forms_rejected);
    RUN(surrogates_rejected);
    RUN(beyond_max_rejected);
    RUN(bad_continuations_rejected);
    RUN(truncated_sequences_rejected_without_overread);
    RUN(validate_reports_first_error_offset);
    RUN(every_scalar_round_trips);
    RUN(sanitize_replaces_each_bad_byte);
    RUN(paths_with_disguised_dots_rejected);
    return mt_finish("strictcheck", argc > 1 ? argv[1] : "junit.xml");
}
