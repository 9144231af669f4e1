/* In-memory raster images: width x height pixels, 1-4 channels, 1 or 2 bytes per sample. */
#ifndef IMAGE_H
#define IMAGE_H

#include <stddef.h>
#include <stdint.h>

/* Largest pixel buffer we agree to allocate for one image. */
#define IMAGE_MAX_BYTES ((size_t)64 * 1024 * 1024)

enum img_err {
    IMG_OK = 0,
    IMG_EINVAL = -1,    /* bad argument or malformed header */
    IMG_ETOOBIG = -2,   /* pixel data would not fit in IMAGE_MAX_BYTES */
    IMG_ENOMEM = -3,
    IMG_ETRUNC = -4,    /* header promises more pixel data than there is */
};

typedef struct {
    uint32_t width, height;
    unsigned channels;  /* 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA */
    unsigned depth;     /* bytes per sample: 1 or 2 (big-endian, as in PNM) */
    size_t stride;      /* bytes per row */
    size_t size;        /* bytes of pixel data */
    uint8_t *data;
} image;

/* Allocates a zeroed image. On error *img is left empty (data == NULL). */
int image_init(image *img, uint32_t width, uint32_t height, unsigned channels, unsigned depth);
void image_free(image *img);
/* Address of pixel (x, y), or NULL when outside the image. */
uint8_t *image_pixel(const image *img, uint32_t x, uint32_t y);
/* Nearest-neighbour resize into a new image *dst. */
int image_scale_nearest(const image *src, image *dst, uint32_t width, uint32_t height);
/* RGB(A) -> gray (Rec. 601 luma), alpha dropped. */
int image_to_gray(const image *src, image *dst);
const char *image_strerror(int err);

#endif
