#include "image.h"

#include <stdlib.h>
#include <string.h>

int image_init(image *img, uint32_t width, uint32_t height, unsigned channels, unsigned depth) {
    memset(img, 0, sizeof *img);
    if (width == 0 || height == 0) return IMG_EINVAL;
    if (channels < 1 || channels > 4 || (depth != 1 && depth != 2)) return IMG_EINVAL;
    size_t size = width * height * channels * depth;
    if (size > IMAGE_MAX_BYTES) return IMG_ETOOBIG;
    img->data = calloc(size ? size : 1, 1);
    if (!img->data) return IMG_ENOMEM;
    img->width = width;
    img->height = height;
    img->channels = channels;
    img->depth = depth;
    img->stride = (size_t)width * channels * depth;
    img->size = size;
    return IMG_OK;
}

void image_free(image *img) {
    free(img->data);
    memset(img, 0, sizeof *img);
}

uint8_t *image_pixel(const image *img, uint32_t x, uint32_t y) {
    if (!img->data || x >= img->width || y >= img->height) return NULL;
    return img->data + (size_t)y * img->stride + (size_t)x * img->channels * img->depth;
}

int image_scale_nearest(const image *src, image *dst, uint32_t width, uint32_t height) {
    int rc = image_init(dst, width, height, src->channels, src->depth);
    if (rc != IMG_OK) return rc;
    size_t px = (size_t)src->channels * src->depth;
    for (uint32_t y = 0; y < height; y++) {
        uint32_t sy = (uint32_t)((uint64_t)y * src->height / height);
        for (uint32_t x = 0; x < width; x++) {
            uint32_t sx = (uint32_t)((uint64_t)x * src->width / width);
            memcpy(image_pixel(dst, x, y), image_pixel(src, sx, sy), px);
        }
    }
    return IMG_OK;
}

static unsigned sample(const uint8_t *p, unsigned depth, unsigned i) {
    return depth == 1 ? p[i] : (unsigned)(p[2 * i] << 8 | p[2 * i + 1]);
}

int image_to_gray(const image *src, image *dst) {
    if (src->channels < 3) return IMG_EINVAL;
    int rc = image_init(dst, src->width, src->height, 1, src->depth);
    if (rc != IMG_OK) return rc;
    for (uint32_t y = 0; y < src->height; y++) {
        for (uint32_t x = 0; x < src->width; x++) {
            const uint8_t *p = image_pixel(src, x, y);
            unsigned luma = (299 * sample(p, src->depth, 0) + 587 * sample(p, src->depth, 1) +
                             114 * sample(p, src->depth, 2) + 500) / 1000;
            uint8_t *q = image_pixel(dst, x, y);
            if (src->depth == 1) {
                q[0] = (uint8_t)luma;
            } else {
                q[0] = (uint8_t)(luma >> 8);
                q[1] = (uint8_t)luma;
            }
        }
    }
    return IMG_OK;
}

const char *image_strerror(int err) {
    switch (err) {
    case IMG_OK: return "ok";
    case IMG_EINVAL: return "invalid image or header";
    case IMG_ETOOBIG: return "image too large";
    case IMG_ENOMEM: return "out of memory";
    case IMG_ETRUNC: return "truncated pixel data";
    default: return "unknown error";
    }
}
