"""Hidden tests of the image library's size checks (the instruction: an image whose pixel
data would exceed IMAGE_MAX_BYTES is refused with IMG_ETOOBIG wherever images are created,
before anything is allocated; images up to the limit keep working). The library runs in the
probe (conftest.py); every expected value is here."""

IMAGE_MAX_BYTES = 64 * 1024 * 1024
IMG_OK, IMG_EINVAL, IMG_ETOOBIG, IMG_ENOMEM, IMG_ETRUNC = 0, -1, -2, -3, -4


def expect_too_big(answer, what):
    assert answer["rc"] == IMG_ETOOBIG, "%s returned %d (size %d), want IMG_ETOOBIG" % (
        what, answer["rc"], answer["size"])
    assert answer["data_null"], "%s refused the image but left data set" % what


def expect_image(answer, what, size, stride=None):
    """An image made: rc OK, the size (and stride) right, and a heap block that holds it."""
    assert answer["rc"] == IMG_OK, "%s returned %d, want IMG_OK" % (what, answer["rc"])
    assert not answer["data_null"], "%s returned IMG_OK without data" % what
    assert answer["size"] == size, "%s: size %d, want %d" % (what, answer["size"], size)
    if stride is not None:
        assert answer["stride"] == stride, "%s: stride %d, want %d" % (what, answer["stride"], stride)
    assert answer["alloc"] is not None and answer["alloc"] >= size, (
        "%s: the pixel buffer is %s bytes for a %d-byte image" % (what, answer["alloc"], size))


def check_too_big(probe, dims):
    # A small image first: the answers must tell refused sizes from accepted ones.
    answers = probe.ask([("init", 1, 16, 16, 4, 2), ("free", 1)] + [("init", 0, *d) for d in dims])
    expect_image(answers[0], "image_init(16, 16, 4, 2)", 2048, 128)
    for d, a in zip(dims, answers[2:]):
        expect_too_big(a, "image_init(%d, %d, %d, %d)" % d)


def test_init_rejects_32bit_wraparound(probe):
    check_too_big(probe, [
        (65536, 65537, 1, 1),        # 2^32 + 65536 bytes
        (65536, 65536, 1, 1),        # exactly 2^32
        (1 << 30, 1, 4, 1),
        (1431655766, 1, 3, 1),       # 3 * w = 2^32 + 2
        (40000, 40000, 3, 2),
    ])


def test_init_rejects_64bit_wraparound(probe):
    check_too_big(probe, [
        (2147483648, 2147483648, 4, 2),   # 2^65 bytes
        (4294967295, 4294967295, 4, 2),
        (4294967295, 4294967295, 1, 1),
        (2147483648, 4, 2, 2),
    ])


def test_init_limit_boundary(probe):
    a = probe.ask([
        ("init", 0, 4096, 4096, 4, 1),
        ("px", 0, 4095, 4095, 4),
        ("poke", 0, 4095, 4095, 3, 0xAB),
        ("byte", 0, IMAGE_MAX_BYTES - 1),
        ("free", 0),
        ("init", 0, IMAGE_MAX_BYTES, 1, 1, 1),
        ("free", 0),
        ("init", 0, IMAGE_MAX_BYTES + 1, 1, 1, 1),
        ("init", 0, 4097, 4096, 4, 1),
        ("init", 0, 4096, 4096, 2, 2),
        ("free", 0),
    ])
    expect_image(a[0], "image_init(4096, 4096, 4, 1)", IMAGE_MAX_BYTES, 4096 * 4)
    assert not a[1]["null"], "image_pixel(4095, 4095) of a 4096x4096 image is NULL"
    assert a[1]["offset"] == IMAGE_MAX_BYTES - 4, "the last pixel is at offset %d" % a[1]["offset"]
    assert a[3]["value"] == 0xAB, "the last pixel's last byte is not the image's last byte"
    expect_image(a[5], "image_init(IMAGE_MAX_BYTES, 1, 1, 1)", IMAGE_MAX_BYTES)
    expect_too_big(a[7], "image_init(IMAGE_MAX_BYTES + 1, 1, 1, 1)")
    expect_too_big(a[8], "image_init(4097, 4096, 4, 1)")
    expect_image(a[9], "image_init(4096, 4096, 2, 2)", IMAGE_MAX_BYTES)


def test_init_small_images_and_bad_arguments(probe):
    a = probe.ask([
        ("init", 0, 3, 2, 3, 2),
        ("px", 0, 2, 1, 6),
        ("px", 0, 3, 0, 0),
        ("free", 0),
        ("init", 0, 0, 5, 1, 1),
        ("init", 0, 5, 0, 1, 1),
        ("init", 0, 5, 5, 5, 1),
        ("init", 0, 5, 5, 1, 3),
    ])
    expect_image(a[0], "image_init(3, 2, 3, 2)", 36, 18)
    assert not a[1]["null"] and a[1]["offset"] == 30, "image_pixel(2, 1) of 3x2 RGB16: %r" % a[1]
    assert a[2]["null"], "image_pixel(3, 0) of a 3-wide image is not NULL"
    for ans, what in zip(a[4:], ["(0, 5, 1, 1)", "(5, 0, 1, 1)", "(5, 5, 5, 1)", "(5, 5, 1, 3)"]):
        assert ans["rc"] == IMG_EINVAL, "image_init%s returned %d, want IMG_EINVAL" % (what, ans["rc"])


def test_decode_rejects_oversized_headers(probe):
    cases = [
        (b"P5\n65536 65537\n255\n", 65536),
        (b"P6\n1431655766 1\n255\n", 2),
        (b"P7\nWIDTH 2147483648\nHEIGHT 2147483648\nDEPTH 4\nMAXVAL 65535\nENDHDR\n", 64),
        (b"P5\n# huge\n4294967295 4294967295\n255\n", 16),
    ]
    # A small valid image first: the answers must tell refused headers from accepted ones.
    answers = probe.ask([("decode", 1, b"P5\n2 1\n255\n\x07\x09"), ("px", 1, 1, 0, 1), ("free", 1)]
                        + [("decodepat", 0, h, n) for h, n in cases])
    expect_image(answers[0], "pnm_decode(2x1 P5)", 2)
    assert answers[1]["bytes"] == "09", "pixel (1, 0) of the 2x1 P5: %r" % answers[1]
    for (h, n), a in zip(cases, answers[3:]):
        expect_too_big(a, "pnm_decode(%r + %d bytes)" % (h, n))


def test_decode_valid_images(probe):
    p5 = b"P5\n# two by two, 16 bit\n2 2\n65535\n\x00\x01\x01\x00\xff\xff\x12\x34"
    pam = b"P7\nWIDTH 2\nHEIGHT 1\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n\x01\x02\x03\x04\x05\x06\x07\x08"
    a = probe.ask([
        ("decode", 0, p5),
        ("px", 0, 1, 1, 2),
        ("free", 0),
        ("decode", 0, pam),
        ("px", 0, 1, 0, 4),
        ("gray", 0, 1),
        ("px", 1, 0, 0, 1),
        ("free", 1),
        ("free", 0),
        ("decodepat", 0, b"P6\n3 3\n255\n", 26),
        ("decodepat", 0, b"P6\n3 3\n255\n", 27),
        ("free", 0),
        ("decodepat", 0, b"P5\n3 3\n0\n", 27),
        ("decodepat", 0, b"P5\n3 3\n65536\n", 27),
    ])
    expect_image(a[0], "pnm_decode(2x2 P5, maxval 65535)", 8)
    assert a[0]["depth"] == 2
    assert a[1]["bytes"] == "1234", "pixel (1, 1) of the 16-bit P5: %r" % a[1]
    expect_image(a[3], "pnm_decode(2x1 PAM RGB_ALPHA)", 8)
    assert a[3]["channels"] == 4
    assert bytes.fromhex(a[4]["bytes"])[3] == 8, "pixel (1, 0) of the PAM: %r" % a[4]
    expect_image(a[5], "image_to_gray(PAM)", 2)
    assert a[6]["bytes"] == "%02x" % ((299 * 1 + 587 * 2 + 114 * 3 + 500) // 1000), "gray (0, 0): %r" % a[6]
    assert a[9]["rc"] == IMG_ETRUNC, "a P6 3x3 with 26 bytes of pixels: %d, want IMG_ETRUNC" % a[9]["rc"]
    assert a[9]["data_null"], "a truncated image left data set"
    expect_image(a[10], "pnm_decode(P6 3x3 with 27 bytes)", 27)
    assert a[12]["rc"] == IMG_EINVAL, "maxval 0: %d, want IMG_EINVAL" % a[12]["rc"]
    assert a[13]["rc"] == IMG_EINVAL, "maxval 65536: %d, want IMG_EINVAL" % a[13]["rc"]


def test_scaling_checks_sizes_too(probe):
    a = probe.ask([
        ("init", 0, 2, 2, 1, 1),
        ("set", 0, 0, bytes([10, 20, 30, 40])),
        ("scale", 0, 1, 65536, 65537),
        ("scale", 0, 1, 2147483648, 2147483648),
        ("scale", 0, 1, 4, 4),
        ("px", 1, 3, 3, 1),
        ("px", 1, 0, 3, 1),
        ("free", 1),
        ("free", 0),
    ])
    expect_image(a[0], "image_init(2, 2, 1, 1)", 4)
    expect_too_big(a[2], "image_scale_nearest(2x2 -> 65536x65537)")
    expect_too_big(a[3], "image_scale_nearest(2x2 -> 2^31 x 2^31)")
    expect_image(a[4], "image_scale_nearest(2x2 -> 4x4)", 16)
    assert a[5]["bytes"] == "28", "scaled pixel (3, 3): %r, want 40" % a[5]
    assert a[6]["bytes"] == "1e", "scaled pixel (0, 3): %r, want 30" % a[6]
