/* Calls the KVX parser for the hidden conformance tests and reports what it did (see
 * probe_io.h). Built with the workspace's src/kvx.c under ASan/UBSan, as the sandbox user.
 * Request:
 *   parse HEXTEXT NGETS [HEXSECTION HEXKEY]...
 * kvx_parse of the text (a heap block of exactly its length plus the NUL), with the document
 * filled with 0xA5 bytes and the error zeroed before the call; then, when it returned 0, the
 * document's entries and kvx_get of each (section, key), and kvx_free. Answer: rc, err_line,
 * err_message (hex), count (the document's count after the call), and when rc is 0,
 * entries [{section, key, value (hex, null for a NULL pointer), line}] and gets (hex, or
 * null for NULL). */
#include "probe_io.h"

#include "kvx.h"

static void hex_or_null(const char *k, const char *s) {
    if (s)
        pio_hex(k, s, strlen(s));
    else
        pio_null(k);
}

int main(void) {
    pio_begin();
    const char *op;
    while ((op = pio_next())) {
        pio_open(op);
        if (strcmp(op, "parse") != 0) pio_fail("unknown request");
        size_t len;
        char *text = (char *)pio_bytes(&len, 1);
        size_t ngets = (size_t)pio_u64();
        struct kvx_doc doc;
        struct kvx_error err = {0, ""};
        memset(&doc, 0xA5, sizeof doc);
        int rc = kvx_parse(text, &doc, &err);
        pio_int("rc", rc);
        pio_int("err_line", err.line);
        pio_hex("err_message", err.message, strnlen(err.message, sizeof err.message));
        pio_uint("count", doc.count);
        if (rc == 0) {
            pio_key("entries");
            pio_put("[", 1);
            for (size_t i = 0; i < doc.count; i++) {
                pio_put(i ? ",{" : "{", i ? 2 : 1);
                pio_first = 1;
                hex_or_null("section", doc.entries[i].section);
                hex_or_null("key", doc.entries[i].key);
                hex_or_null("value", doc.entries[i].value);
                pio_int("line", doc.entries[i].line);
                pio_put("}", 1);
            }
            pio_put("]", 1);
            pio_first = 0;
            pio_key("gets");
            pio_put("[", 1);
            for (size_t i = 0; i < ngets; i++) {
                size_t sl, kl;
                char *sec = (char *)pio_bytes(&sl, 1), *key = (char *)pio_bytes(&kl, 1);
                pio_put(i ? ",{" : "{", i ? 2 : 1);
                pio_first = 1;
                hex_or_null("value", kvx_get(&doc, sec, key));
                pio_put("}", 1);
                pio_first = 0;
                free(sec);
                free(key);
            }
            pio_put("]", 1);
            kvx_free(&doc);
        }
        free(text);
        pio_close();
    }
    return pio_end();
}
