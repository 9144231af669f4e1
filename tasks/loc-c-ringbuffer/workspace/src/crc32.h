#ifndef CRC32_H
#define CRC32_H
#include <stddef.h>
#include <stdint.h>
/* IEEE 802.3 CRC-32, used by the uplink to checksum each shipped batch. */
uint32_t crc32_update(uint32_t crc, const void *data, size_t len);
#endif
