/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pbwrite.c - protobuf's wire format and a gzip member of stored blocks
 * (pbwrite.h says why they are written here).
 *
 * A field is a key, (FIELD << 3) | WIRE_TYPE, as a varint, then its
 * value: a varint (wire type 0: 7 bits a byte, low bits first, the high
 * bit set on every byte but the last), or a length as a varint and that
 * many bytes (wire type 2: strings, bytes, nested messages, packed
 * repeated scalars).  A nested message's length must come before it, so
 * it is written into its own struct pb first and copied (pb_msg); the
 * messages of a profile are small, so the copy costs nothing that
 * matters.
 *
 * gzip (RFC 1952): a 10-byte header (magic 1f 8b, method 8 = deflate, no
 * flags, MTIME, XFL 0, OS 3 = Unix), the deflate stream, then the CRC-32
 * of the data and its length mod 2^32, both little-endian.  The deflate
 * stream here is stored blocks (RFC 1951 3.2.4): a byte with BFINAL in
 * bit 0 and BTYPE 00 (the rest of the byte is padding to the boundary),
 * LEN and its one's complement NLEN as 16-bit little-endian, and LEN
 * bytes (at most 65535).  Empty data is one final block of length 0.
 */
#include "pbwrite.h"

#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "grow.h"

enum { WIRE_VARINT = 0, WIRE_LEN = 2 };

/* Room for NEED more bytes at the end of M; 0, or -1 (M->oom set). */
static int
room (struct pb *m, size_t need)
{
  if (m->oom)
    return -1;
  if (need > SIZE_MAX - m->n
      || osp_grow (&m->p, &m->cap, m->n + need, 1, 256) != 0)
    {
      m->oom = 1;
      return -1;
    }
  return 0;
}

static void
put (struct pb *m, const void *data, size_t len)
{
  if (len && room (m, len) == 0)
    {
      memcpy (m->p + m->n, data, len);
      m->n += len;
    }
}

void
pb_raw_varint (struct pb *m, uint64_t x)
{
  unsigned char b[10];
  size_t n = 0;
  do
    {
      b[n] = (unsigned char) (x & 0x7f);
      x >>= 7;
      if (x)
        b[n] |= 0x80;
      n++;
    }
  while (x);
  put (m, b, n);
}

void
pb_varint (struct pb *m, uint32_t field, uint64_t x)
{
  pb_raw_varint (m, (uint64_t) field << 3 | WIRE_VARINT);
  pb_raw_varint (m, x);
}

void
pb_bytes (struct pb *m, uint32_t field, const void *data, size_t len)
{
  pb_raw_varint (m, (uint64_t) field << 3 | WIRE_LEN);
  pb_raw_varint (m, len);
  put (m, data, len);
}

void
pb_msg (struct pb *m, uint32_t field, const struct pb *sub)
{
  if (sub->oom)
    m->oom = 1;
  pb_bytes (m, field, sub->p, sub->n);
}

void
pb_clear (struct pb *m)
{
  m->n = 0;
}

void
pb_free (struct pb *m)
{
  free (m->p);
  memset (m, 0, sizeof *m);
}

/* X as 4 (or 2) little-endian bytes. */
static void
put_le (struct pb *m, uint32_t x, int bytes)
{
  unsigned char b[4];
  for (int i = 0; i < bytes; i++)
    b[i] = (unsigned char) (x >> 8 * i);
  put (m, b, (size_t) bytes);
}

int
pb_gzip (struct pb *out, const void *data, size_t len, uint32_t mtime)
{
  static const unsigned char magic[] = { 0x1f, 0x8b, 8, 0 };
  const unsigned char *d = data;
  put (out, magic, sizeof magic);
  put_le (out, mtime, 4);
  put (out, "\0\3", 2); /* XFL 0, OS 3 (Unix) */
  size_t at = 0;
  do
    {
      size_t n = len - at > 65535 ? 65535 : len - at;
      unsigned char final = at + n == len;
      put (out, &final, 1);
      put_le (out, (uint32_t) n, 2);
      put_le (out, (uint32_t) n ^ 0xffffu, 2);
      put (out, d + at, n);
      at += n;
    }
  while (at < len);
  put_le (out, osp_crc32 (0, data, len), 4);
  put_le (out, (uint32_t) len, 4);
  return out->oom ? -1 : 0;
}
