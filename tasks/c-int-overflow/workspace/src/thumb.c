/* thumb IN.pnm OUT.pgm SIZE: grayscale thumbnail whose longer side is SIZE pixels. */
#include <stdio.h>
#include <stdlib.h>

#include "image.h"
#include "pnm.h"

static unsigned char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            unsigned char *bigger = realloc(buf, cap *= 2);
            if (!bigger) { free(buf); buf = NULL; }
            buf = bigger;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: thumb IN.pnm OUT.pgm SIZE\n");
        return 2;
    }
    size_t len = 0;
    unsigned char *buf = slurp(argv[1], &len);
    if (!buf) { perror(argv[1]); return 1; }
    image img, gray, small;
    int rc = pnm_decode(buf, len, &img);
    free(buf);
    if (rc != IMG_OK) { fprintf(stderr, "thumb: %s: %s\n", argv[1], image_strerror(rc)); return 1; }
    if (img.channels >= 3) {
        if ((rc = image_to_gray(&img, &gray)) != IMG_OK) { fprintf(stderr, "thumb: %s\n", image_strerror(rc)); return 1; }
        image_free(&img);
        img = gray;
    }
    unsigned long side = strtoul(argv[3], NULL, 10);
    uint32_t w = img.width >= img.height ? (uint32_t)side : (uint32_t)(side * img.width / img.height);
    uint32_t h = img.width >= img.height ? (uint32_t)(side * img.height / img.width) : (uint32_t)side;
    if ((rc = image_scale_nearest(&img, &small, w ? w : 1, h ? h : 1)) != IMG_OK) {
        fprintf(stderr, "thumb: %s\n", image_strerror(rc));
        return 1;
    }
    FILE *o = fopen(argv[2], "wb");
    if (!o) { perror(argv[2]); return 1; }
    fprintf(o, "P5\n%u %u\n%u\n", small.width, small.height, small.depth == 1 ? 255u : 65535u);
    fwrite(small.data, 1, small.size, o);
    fclose(o);
    image_free(&img);
    image_free(&small);
    return 0;
}
