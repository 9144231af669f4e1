#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "../src/image.h"
#include "../src/pnm.h"

int main(void) {
    static const unsigned char p6[] = "P6\n2 1\n255\n\xff\x00\x00\x00\xff\x00";
    image img, gray;
    assert(pnm_decode(p6, sizeof p6 - 1, &img) == IMG_OK);
    assert(img.width == 2 && img.channels == 3 && img.size == 6);
    assert(image_to_gray(&img, &gray) == IMG_OK);
    assert(image_pixel(&gray, 0, 0)[0] == 76 && image_pixel(&gray, 1, 0)[0] == 150);
    image_free(&img);
    image_free(&gray);
    assert(image_init(&img, 0, 5, 1, 1) == IMG_EINVAL);
    puts("image tests passed");
    return 0;
}
