#include "pnm.h"

#include <ctype.h>
#include <string.h>

typedef struct {
    const unsigned char *p, *end;
} cursor;

static void skip_space_and_comments(cursor *c) {
    while (c->p < c->end) {
        if (*c->p == '#') {
            while (c->p < c->end && *c->p != '\n') c->p++;
        } else if (isspace(*c->p)) {
            c->p++;
        } else {
            break;
        }
    }
}

/* A decimal number up to 2^32-1. */
static int read_uint(cursor *c, unsigned long *out) {
    skip_space_and_comments(c);
    if (c->p >= c->end || !isdigit(*c->p)) return IMG_EINVAL;
    unsigned long v = 0;
    while (c->p < c->end && isdigit(*c->p)) {
        v = v * 10 + (unsigned long)(*c->p - '0');
        if (v > 0xFFFFFFFFul) return IMG_EINVAL;
        c->p++;
    }
    *out = v;
    return IMG_OK;
}

static int read_word(cursor *c, char *out, size_t cap) {
    skip_space_and_comments(c);
    size_t n = 0;
    while (c->p < c->end && !isspace(*c->p)) {
        if (n + 1 >= cap) return IMG_EINVAL;
        out[n++] = (char)*c->p++;
    }
    out[n] = '\0';
    return n ? IMG_OK : IMG_EINVAL;
}

static int pam_header(cursor *c, unsigned long *w, unsigned long *h, unsigned long *ch, unsigned long *maxval) {
    char key[32], ignored[64];
    *w = *h = *ch = *maxval = 0;
    for (;;) {
        if (read_word(c, key, sizeof key) != IMG_OK) return IMG_EINVAL;
        if (strcmp(key, "ENDHDR") == 0) break;
        int rc = IMG_OK;
        if (strcmp(key, "WIDTH") == 0) rc = read_uint(c, w);
        else if (strcmp(key, "HEIGHT") == 0) rc = read_uint(c, h);
        else if (strcmp(key, "DEPTH") == 0) rc = read_uint(c, ch);
        else if (strcmp(key, "MAXVAL") == 0) rc = read_uint(c, maxval);
        else if (strcmp(key, "TUPLTYPE") == 0) rc = read_word(c, ignored, sizeof ignored);
        else return IMG_EINVAL;
        if (rc != IMG_OK) return rc;
    }
    return IMG_OK;
}

int pnm_decode(const unsigned char *buf, size_t len, image *out) {
    memset(out, 0, sizeof *out);
    cursor c = {buf, buf + len};
    if (len < 2 || buf[0] != 'P') return IMG_EINVAL;
    char kind = (char)buf[1];
    c.p += 2;
    unsigned long w, h, ch, maxval;
    int rc;
    if (kind == '5' || kind == '6') {
        ch = kind == '5' ? 1 : 3;
        if ((rc = read_uint(&c, &w)) || (rc = read_uint(&c, &h)) || (rc = read_uint(&c, &maxval))) return rc;
        /* Exactly one whitespace byte separates the header from the samples. */
        if (c.p >= c.end || !isspace(*c.p)) return IMG_EINVAL;
        c.p++;
    } else if (kind == '7') {
        if ((rc = pam_header(&c, &w, &h, &ch, &maxval))) return rc;
        if (c.p >= c.end || *c.p != '\n') return IMG_EINVAL;
        c.p++;
    } else {
        return IMG_EINVAL;
    }
    if (maxval < 1 || maxval > 65535 || ch < 1 || ch > 4) return IMG_EINVAL;
    rc = image_init(out, (uint32_t)w, (uint32_t)h, (unsigned)ch, maxval > 255 ? 2 : 1);
    if (rc != IMG_OK) return rc;
    if ((size_t)(c.end - c.p) < out->size) {
        image_free(out);
        return IMG_ETRUNC;
    }
    memcpy(out->data, c.p, out->size);
    return IMG_OK;
}
