/* SPDX-License-Identifier: MIT */
/* sha256.c - SHA-256 as FIPS 180-4 section 6.2 gives it (sha256.h).
 *
 * A plain, portable implementation: it hashes source files once each
 * (a few MB at most), so clarity beats speed.  Known-answer tests:
 * libosprt/tests/t_sha256.c. */
#include "sha256.h"

#include <string.h>

static const uint32_t K[64] = {
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
  0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
  0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
  0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
};

static uint32_t
ror (uint32_t x, unsigned n)
{
  return (x >> n) | (x << (32 - n));
}

static void
block (struct osp_sha256 *c, const unsigned char *p)
{
  uint32_t w[64];
  for (int i = 0; i < 16; i++)
    w[i] = (uint32_t) p[4 * i] << 24 | (uint32_t) p[4 * i + 1] << 16
           | (uint32_t) p[4 * i + 2] << 8 | (uint32_t) p[4 * i + 3];
  for (int i = 16; i < 64; i++)
    {
      uint32_t s0 = ror (w[i - 15], 7) ^ ror (w[i - 15], 18) ^ (w[i - 15] >> 3);
      uint32_t s1 = ror (w[i - 2], 17) ^ ror (w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
  uint32_t a = c->h[0], b = c->h[1], cc = c->h[2], d = c->h[3];
  uint32_t e = c->h[4], f = c->h[5], g = c->h[6], h = c->h[7];
  for (int i = 0; i < 64; i++)
    {
      uint32_t t1 = h + (ror (e, 6) ^ ror (e, 11) ^ ror (e, 25))
                    + ((e & f) ^ (~e & g)) + K[i] + w[i];
      uint32_t t2 = (ror (a, 2) ^ ror (a, 13) ^ ror (a, 22))
                    + ((a & b) ^ (a & cc) ^ (b & cc));
      h = g;
      g = f;
      f = e;
      e = d + t1;
      d = cc;
      cc = b;
      b = a;
      a = t1 + t2;
    }
  c->h[0] += a;
  c->h[1] += b;
  c->h[2] += cc;
  c->h[3] += d;
  c->h[4] += e;
  c->h[5] += f;
  c->h[6] += g;
  c->h[7] += h;
}

void
osp_sha256_init (struct osp_sha256 *c)
{
  static const uint32_t h0[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372,
                                  0xa54ff53a, 0x510e527f, 0x9b05688c,
                                  0x1f83d9ab, 0x5be0cd19 };
  memcpy (c->h, h0, sizeof h0);
  c->len = 0;
}

void
osp_sha256_update (struct osp_sha256 *c, const void *data, size_t len)
{
  const unsigned char *p = (const unsigned char *) data;
  while (len > 0)
    {
      size_t used = (size_t) (c->len % 64), take = 64 - used;
      if (take > len)
        take = len;
      memcpy (c->buf + used, p, take);
      c->len += take;
      p += take;
      len -= take;
      if (c->len % 64 == 0)
        block (c, c->buf);
    }
}

void
osp_sha256_final (struct osp_sha256 *c, unsigned char out[OSP_SHA256_BYTES])
{
  uint64_t bits = c->len * 8;
  static const unsigned char pad[64] = { 0x80 };
  size_t used = (size_t) (c->len % 64);
  /* 0x80, zeros up to 56 mod 64, then the length in bits (big-endian) */
  osp_sha256_update (c, pad, used < 56 ? 56 - used : 120 - used);
  unsigned char be[8];
  for (int i = 0; i < 8; i++)
    be[i] = (unsigned char) (bits >> (56 - 8 * i));
  osp_sha256_update (c, be, 8);
  for (int i = 0; i < 8; i++)
    {
      out[4 * i] = (unsigned char) (c->h[i] >> 24);
      out[4 * i + 1] = (unsigned char) (c->h[i] >> 16);
      out[4 * i + 2] = (unsigned char) (c->h[i] >> 8);
      out[4 * i + 3] = (unsigned char) c->h[i];
    }
}

void
osp_sha256 (const void *data, size_t len, unsigned char out[OSP_SHA256_BYTES])
{
  struct osp_sha256 c;
  osp_sha256_init (&c);
  osp_sha256_update (&c, data, len);
  osp_sha256_final (&c, out);
}
