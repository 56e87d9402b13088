/* SPDX-License-Identifier: MIT */
/* crc32.h - CRC-32 (IEEE, zlib-compatible) of the view's sections
 * (crc32.c).  Shared by the runtime and ospview. */
#ifndef OSP_CRC32_H
#define OSP_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* The CRC-32 of LEN bytes at BUF continuing CRC (0 to start), as zlib's
   crc32 (CRC, BUF, LEN): osp_crc32 (0, "123456789", 9) == 0xCBF43926. */
uint32_t osp_crc32 (uint32_t crc, const void *buf, size_t len);

#endif
