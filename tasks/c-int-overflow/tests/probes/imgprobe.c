/* Calls the image library for the hidden tests and reports what it did (see probe_io.h).
 * Built with the workspace's src/image.c and src/pnm.c under ASan/UBSan, as the sandbox user.
 *
 * Images live in numbered slots. Before a call that fills a slot, the slot is filled with
 * 0x5A bytes, so a call that fails without clearing it shows. Requests:
 *   init S W H CH DEPTH     image_init            -> rc + the slot
 *   decode S HEX            pnm_decode of exactly those bytes (a heap block of that size)
 *   decodepat S HEX N       the same, of HEX followed by N bytes, byte i being (i * 31) & 255
 *   scale S D W H           image_scale_nearest(S -> D)
 *   gray S D                image_to_gray(S -> D)
 *   px S X Y N              image_pixel: null, offset from data, and N bytes there
 *   poke S X Y K V          image_pixel(S, X, Y)[K] = V
 *   byte S I                data[I]
 *   set S OFF HEX           copies bytes into data at OFF
 *   free S                  image_free
 * A slot's report: rc, data_null, width, height, channels, depth, stride, size, and when data
 * is a heap block, its allocated size (`alloc`, from the allocator, not from the library). */
#include "probe_io.h"

/* From ASan's allocator interface (libasan; the header is not installed everywhere). */
int __sanitizer_get_ownership(const volatile void *p);
size_t __sanitizer_get_allocated_size(const volatile void *p);

#include "image.h"
#include "pnm.h"

#define SLOTS 8
static image slot[SLOTS];

static image *slot_arg(void) {
    unsigned long long s = pio_u64();
    if (s >= SLOTS) pio_fail("no such slot");
    return &slot[s];
}

static void report(int rc, const image *img) {
    pio_int("rc", rc);
    pio_bool("data_null", img->data == NULL);
    pio_uint("width", img->width);
    pio_uint("height", img->height);
    pio_uint("channels", img->channels);
    pio_uint("depth", img->depth);
    pio_uint("stride", img->stride);
    pio_uint("size", img->size);
    if (img->data && __sanitizer_get_ownership(img->data))
        pio_uint("alloc", __sanitizer_get_allocated_size(img->data));
    else
        pio_null("alloc");
}

static void decode_into(image *img, const uint8_t *buf, size_t len) {
    memset(img, 0x5A, sizeof *img);
    report(pnm_decode(buf, len, img), img);
}

int main(void) {
    pio_begin();
    const char *op;
    while ((op = pio_next())) {
        pio_open(op);
        if (strcmp(op, "init") == 0) {
            image *img = slot_arg();
            uint32_t w = (uint32_t)pio_u64(), h = (uint32_t)pio_u64();
            unsigned ch = (unsigned)pio_u64(), depth = (unsigned)pio_u64();
            memset(img, 0x5A, sizeof *img);
            report(image_init(img, w, h, ch, depth), img);
        } else if (strcmp(op, "decode") == 0) {
            image *img = slot_arg();
            size_t len;
            uint8_t *buf = pio_bytes(&len, 0);
            decode_into(img, buf, len);
            free(buf);
        } else if (strcmp(op, "decodepat") == 0) {
            image *img = slot_arg();
            size_t hl;
            uint8_t *head = pio_bytes(&hl, 0);
            size_t n = (size_t)pio_u64();
            uint8_t *buf = malloc(hl + n ? hl + n : 1);
            if (!buf) pio_fail("out of memory");
            memcpy(buf, head, hl);
            for (size_t i = 0; i < n; i++) buf[hl + i] = (uint8_t)(i * 31);
            decode_into(img, buf, hl + n);
            free(buf);
            free(head);
        } else if (strcmp(op, "scale") == 0) {
            image *src = slot_arg(), *dst = slot_arg();
            uint32_t w = (uint32_t)pio_u64(), h = (uint32_t)pio_u64();
            memset(dst, 0x5A, sizeof *dst);
            report(image_scale_nearest(src, dst, w, h), dst);
        } else if (strcmp(op, "gray") == 0) {
            image *src = slot_arg(), *dst = slot_arg();
            memset(dst, 0x5A, sizeof *dst);
            report(image_to_gray(src, dst), dst);
        } else if (strcmp(op, "px") == 0) {
            image *img = slot_arg();
            uint32_t x = (uint32_t)pio_u64(), y = (uint32_t)pio_u64();
            size_t n = (size_t)pio_u64();
            uint8_t *p = image_pixel(img, x, y);
            pio_bool("null", p == NULL);
            if (p) {
                pio_int("offset", (long long)((intptr_t)p - (intptr_t)img->data));
                pio_hex("bytes", p, n);
            }
        } else if (strcmp(op, "poke") == 0) {
            image *img = slot_arg();
            uint32_t x = (uint32_t)pio_u64(), y = (uint32_t)pio_u64();
            size_t k = (size_t)pio_u64();
            uint8_t v = (uint8_t)pio_u64();
            uint8_t *p = image_pixel(img, x, y);
            pio_bool("null", p == NULL);
            if (p) p[k] = v;
        } else if (strcmp(op, "byte") == 0) {
            image *img = slot_arg();
            size_t i = (size_t)pio_u64();
            pio_uint("value", img->data[i]);
        } else if (strcmp(op, "set") == 0) {
            image *img = slot_arg();
            size_t off = (size_t)pio_u64(), n;
            uint8_t *b = pio_bytes(&n, 0);
            memcpy(img->data + off, b, n);
            free(b);
        } else if (strcmp(op, "free") == 0) {
            image_free(slot_arg());
        } else {
            pio_fail("unknown request");
        }
        pio_close();
    }
    return pio_end();
}
