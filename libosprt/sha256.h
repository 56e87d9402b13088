/* SPDX-License-Identifier: MIT */
/* sha256.h - SHA-256 (FIPS 180-4) of a source file's bytes (sha256.c).
 *
 * Not part of the runtime library: the plugin records the digest of each
 * source file it compiles, and ospview shows a file's text only when the
 * file on disk has that digest (doc/osp.md, "Safety").  A crafted snapshot
 * may name any path with any digest, so the check needs a hash nobody can
 * forge a collision for: CRC-32 (crc32.h) only catches accidents.
 * C and C++ (the plugin compiles against it). */
#ifndef OSP_SHA256_H
#define OSP_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define OSP_SHA256_BYTES 32

#ifdef __cplusplus
extern "C" {
#endif

struct osp_sha256
{
  uint32_t h[8];
  uint64_t len;          /* bytes hashed so far */
  unsigned char buf[64]; /* the partial block */
};

void osp_sha256_init (struct osp_sha256 *c);
void osp_sha256_update (struct osp_sha256 *c, const void *data, size_t len);
void osp_sha256_final (struct osp_sha256 *c,
                       unsigned char out[OSP_SHA256_BYTES]);
/* The digest of LEN bytes at DATA in one call. */
void osp_sha256 (const void *data, size_t len,
                 unsigned char out[OSP_SHA256_BYTES]);

#ifdef __cplusplus
}
#endif

#endif
