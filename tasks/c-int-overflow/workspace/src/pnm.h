/* Netpbm decoding from memory: P5 (gray), P6 (RGB) and P7 (PAM, 1-4 channels).
 * maxval 1..255 gives 1-byte samples, 256..65535 gives 2-byte big-endian samples. */
#ifndef PNM_H
#define PNM_H

#include <stddef.h>

#include "image.h"

int pnm_decode(const unsigned char *buf, size_t len, image *out);

#endif
