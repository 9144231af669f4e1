#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "pnm.h"
/* Last: the runner wins over anything the workspace headers defined. */
#include "minitest.h"

static void expect_too_big(uint32_t w, uint32_t h, unsigned ch, unsigned depth) {
    image img;
    memset(&img, 0x5A, sizeof img);
    int rc = image_init(&img, w, h, ch, depth);
    if (rc != IMG_ETOOBIG) {
        fprintf(stderr, "    image_init(%u, %u, %u, %u) returned %d, size %zu\n", w, h, ch, depth, rc, img.size);
    }
    CHECK_EQ(rc, IMG_ETOOBIG);
    CHECK(img.data == NULL);
}

static void init_rejects_32bit_wraparound(void) {
    expect_too_big(65536, 65537, 1, 1);      /* 2^32 + 65536 bytes */
    expect_too_big(65536, 65536, 1, 1);      /* exactly 2^32 */
    expect_too_big(1u << 30, 1, 4, 1);
    expect_too_big(1431655766u, 1, 3, 1);    /* 3 * w = 2^32 + 2 */
    expect_too_big(40000, 40000, 3, 2);
}

static void init_rejects_64bit_wraparound(void) {
    expect_too_big(2147483648u, 2147483648u, 4, 2);   /* 2^65 bytes */
    expect_too_big(4294967295u, 4294967295u, 4, 2);
    expect_too_big(4294967295u, 4294967295u, 1, 1);
    expect_too_big(2147483648u, 4, 2, 2);
}

static void init_limit_boundary(void) {
    image img;
    CHECK_EQ(image_init(&img, 4096, 4096, 4, 1), IMG_OK);
    CHECK_EQ(img.size, IMAGE_MAX_BYTES);
    CHECK_EQ(img.stride, 4096 * 4);
    uint8_t *last = image_pixel(&img, 4095, 4095);
    CHECK(last != NULL);
    last[3] = 0xAB;
    CHECK_EQ(img.data[img.size - 1], 0xAB);
    image_free(&img);
    CHECK_EQ(image_init(&img, (uint32_t)IMAGE_MAX_BYTES, 1, 1, 1), IMG_OK);
    image_free(&img);
    expect_too_big((uint32_t)IMAGE_MAX_BYTES + 1, 1, 1, 1);
    expect_too_big(4097, 4096, 4, 1);
    CHECK_EQ(image_init(&img, 4096, 4096, 2, 2), IMG_OK);
    image_free(&img);
}

static void init_small_images_and_bad_arguments(void) {
    image img;
    CHECK_EQ(image_init(&img, 3, 2, 3, 2), IMG_OK);
    CHECK_EQ(img.size, 36);
    CHECK_EQ(img.stride, 18);
    CHECK(image_pixel(&img, 2, 1) == img.data + 30);
    CHECK(image_pixel(&img, 3, 0) == NULL);
    image_free(&img);
    CHECK_EQ(image_init(&img, 0, 5, 1, 1), IMG_EINVAL);
    CHECK_EQ(image_init(&img, 5, 0, 1, 1), IMG_EINVAL);
    CHECK_EQ(image_init(&img, 5, 5, 5, 1), IMG_EINVAL);
    CHECK_EQ(image_init(&img, 5, 5, 1, 3), IMG_EINVAL);
}

static int decode_with_payload(const char *header, size_t payload, image *out) {
    size_t hl = strlen(header);
    unsigned char *buf = calloc(hl + payload + 1, 1);
    memcpy(buf, header, hl);
    for (size_t i = 0; i < payload; i++) buf[hl + i] = (unsigned char)(i * 31);
    int rc = pnm_decode(buf, hl + payload, out);
    free(buf);
    return rc;
}

static void decode_rejects_oversized_headers(void) {
    image img;
    CHECK_EQ(decode_with_payload("P5\n65536 65537\n255\n", 65536, &img), IMG_ETOOBIG);
    CHECK(img.data == NULL);
    CHECK_EQ(decode_with_payload("P6\n1431655766 1\n255\n", 2, &img), IMG_ETOOBIG);
    CHECK_EQ(decode_with_payload("P7\nWIDTH 2147483648\nHEIGHT 2147483648\nDEPTH 4\nMAXVAL 65535\nENDHDR\n", 64, &img),
             IMG_ETOOBIG);
    CHECK_EQ(decode_with_payload("P5\n# huge\n4294967295 4294967295\n255\n", 16, &img), IMG_ETOOBIG);
}

static void decode_valid_images(void) {
    image img;
    static const unsigned char p5[] = "P5\n# two by two, 16 bit\n2 2\n65535\n\x00\x01\x01\x00\xff\xff\x12\x34";
    CHECK_EQ(pnm_decode(p5, sizeof p5 - 1, &img), IMG_OK);
    CHECK_EQ(img.depth, 2);
    CHECK_EQ(img.size, 8);
    CHECK_EQ(image_pixel(&img, 1, 1)[0], 0x12);
    CHECK_EQ(image_pixel(&img, 1, 1)[1], 0x34);
    image_free(&img);

    static const unsigned char pam[] =
        "P7\nWIDTH 2\nHEIGHT 1\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n\x01\x02\x03\x04\x05\x06\x07\x08";
    CHECK_EQ(pnm_decode(pam, sizeof pam - 1, &img), IMG_OK);
    CHECK_EQ(img.channels, 4);
    CHECK_EQ(image_pixel(&img, 1, 0)[3], 8);
    image gray;
    CHECK_EQ(image_to_gray(&img, &gray), IMG_OK);
    CHECK_EQ(image_pixel(&gray, 0, 0)[0], (299 * 1 + 587 * 2 + 114 * 3 + 500) / 1000);
    image_free(&gray);
    image_free(&img);

    CHECK_EQ(decode_with_payload("P6\n3 3\n255\n", 26, &img), IMG_ETRUNC);
    CHECK(img.data == NULL);
    CHECK_EQ(decode_with_payload("P6\n3 3\n255\n", 27, &img), IMG_OK);
    image_free(&img);
    CHECK_EQ(decode_with_payload("P5\n3 3\n0\n", 27, &img), IMG_EINVAL);
    CHECK_EQ(decode_with_payload("P5\n3 3\n65536\n", 27, &img), IMG_EINVAL);
}

static void scaling_checks_sizes_too(void) {
    image src, dst;
    CHECK_EQ(image_init(&src, 2, 2, 1, 1), IMG_OK);
    for (int i = 0; i < 4; i++) src.data[i] = (uint8_t)(10 * (i + 1));
    CHECK_EQ(image_scale_nearest(&src, &dst, 65536, 65537), IMG_ETOOBIG);
    CHECK(dst.data == NULL);
    CHECK_EQ(image_scale_nearest(&src, &dst, 2147483648u, 2147483648u), IMG_ETOOBIG);
    CHECK_EQ(image_scale_nearest(&src, &dst, 4, 4), IMG_OK);
    CHECK_EQ(image_pixel(&dst, 3, 3)[0], 40);
    CHECK_EQ(image_pixel(&dst, 0, 3)[0], 30);
    image_free(&dst);
    image_free(&src);
}

int main(int argc, char **argv) {
    RUN(init_rejects_32bit_wraparound);
    RUN(init_rejects_64bit_wraparound);
    RUN(init_limit_boundary);
    RUN(init_small_images_and_bad_arguments);
    RUN(decode_rejects_oversized_headers);
    RUN(decode_valid_images);
    RUN(scaling_checks_sizes_too);
    return mt_finish("sizecheck", argc > 1 ? argv[1] : "junit.xml");
}
