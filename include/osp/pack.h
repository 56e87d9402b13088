/* SPDX-License-Identifier: MIT */
/* osp/pack.h - the packed form of a record's word arrays (ABI 9,
 * OSP_FN_PACKED in osp/abi.h), shared by the plugin, which packs, and the
 * runtime, which unpacks each record once, at registration, into the words
 * abi.h describes.
 *
 * Why: as 32- and 64-bit words, a function's cfg and P-DAG values take
 * about 60 bytes a block, more than the block's instrumented code, and
 * they are read once.  Most of them are small numbers: a flag word, a
 * successor's block id, a path value below a few thousand, the next
 * block's line a few lines on.  Packed, a block takes about 15 bytes.
 *
 * Every word is one unsigned LEB128 number (7 bits a byte, low first, the
 * high bit set on all bytes but the last), of a value that depends on the
 * array and the word's place in it:
 *   cfg, for each block b: line_first as the zigzag of its difference from
 *       the previous block's line_first (0 before block 0), line_last as
 *       the zigzag of line_last - line_first, flags, nsucc, then for each
 *       successor dst + 1 (0 for OSP_BLOCK_EXIT) and its edge flags;
 *   paths: w + 1, 0 for OSP_PATH_NONE;
 *   costs and lines: the word itself.
 * (zigzag: 2v for v >= 0, -2v - 1 for v < 0.)  A packed array ends with
 * its last number: its length in the record is in bytes.
 *
 * The unpacker trusts nothing: a number of more than 10 bytes, or past
 * the array's end, or over the word's width, and an array that does not
 * end exactly after its last word, make it fail (-1), and the record is
 * refused as malformed.
 *
 * C and C++; <stddef.h> and <stdint.h> only. */
#ifndef OSP_PACK_H
#define OSP_PACK_H

#include <stddef.h>
#include <stdint.h>

/* Append V to OUT; the bytes written (1..10). */
static inline size_t
osp_pack_u (uint8_t *out, uint64_t v)
{
  size_t n = 0;
  while (v >= 0x80)
    {
      out[n++] = (uint8_t) (v | 0x80);
      v >>= 7;
    }
  out[n++] = (uint8_t) v;
  return n;
}

/* Read one number at *P (before END) into *V and advance *P; -1 when it is
   cut off by END or longer than 64 bits. */
static inline int
osp_unpack_u (const uint8_t **p, const uint8_t *end, uint64_t *v)
{
  /* Most numbers are below 128 (why they are packed): one byte, one test;
     the loop costs three times that, and registration unpacks every
     record of the program. */
  if (*p < end && **p < 0x80)
    {
      *v = *(*p)++;
      return 0;
    }
  uint64_t x = 0;
  for (unsigned shift = 0; *p < end && shift < 64; shift += 7)
    {
      uint8_t b = *(*p)++;
      if (shift == 63 && b > 1)
        return -1;
      x |= (uint64_t) (b & 0x7f) << shift;
      if (!(b & 0x80))
        {
          *v = x;
          return 0;
        }
    }
  return -1;
}

static inline uint64_t
osp_zigzag (int64_t v)
{
  return v >= 0 ? (uint64_t) v * 2 : ((uint64_t) -(v + 1)) * 2 + 1;
}

static inline int64_t
osp_unzigzag (uint64_t u)
{
  return (u & 1) ? -(int64_t) (u >> 1) - 1 : (int64_t) (u >> 1);
}

/* The packed value of cfg word W, given where it lies: KIND 0 line_first
   (PREV the previous block's), 1 line_last (PREV this block's line_first),
   2 flags, 3 nsucc, 4 a successor's dst, 5 an edge's flags. */
static inline uint64_t
osp_pack_cfg_word (unsigned kind, uint32_t w, uint32_t prev)
{
  switch (kind)
    {
    case 0:
    case 1:
      return osp_zigzag ((int64_t) w - (int64_t) prev);
    case 4:
      return w == 0xffffffffu ? 0 : (uint64_t) w + 1;
    default:
      return w;
    }
}

/* Pack the NWORDS cfg words W of NBLOCKS blocks (already well formed) into
   OUT, which has room for 5 bytes a word; the bytes written. */
static inline size_t
osp_pack_cfg (const uint32_t *w, size_t nwords, uint32_t nblocks,
              uint8_t *out)
{
  size_t n = 0, i = 0;
  uint32_t prev_first = 0;
  for (uint32_t b = 0; b < nblocks && i + 4 <= nwords; b++)
    {
      uint32_t first = w[i], nsucc = w[i + 3];
      n += osp_pack_u (out + n, osp_pack_cfg_word (0, first, prev_first));
      n += osp_pack_u (out + n, osp_pack_cfg_word (1, w[i + 1], first));
      n += osp_pack_u (out + n, w[i + 2]);
      n += osp_pack_u (out + n, nsucc);
      i += 4;
      for (uint32_t s = 0; s < nsucc && i + 2 <= nwords; s++, i += 2)
        {
          n += osp_pack_u (out + n, osp_pack_cfg_word (4, w[i], 0));
          n += osp_pack_u (out + n, w[i + 1]);
        }
      prev_first = first;
    }
  return n;
}

/* Unpack LEN bytes IN of NBLOCKS blocks' cfg into OUT (room for CAP words;
   LEN words always suffice); the words written, or -1. */
static inline int64_t
osp_unpack_cfg (const uint8_t *in, size_t len, uint32_t nblocks,
                uint32_t *out, size_t cap)
{
  const uint8_t *p = in, *end = in + len;
  size_t i = 0;
  int64_t prev_first = 0;
  for (uint32_t b = 0; b < nblocks; b++)
    {
      uint64_t v[4];
      for (int k = 0; k < 4; k++)
        if (osp_unpack_u (&p, end, &v[k]) != 0)
          return -1;
      int64_t first = prev_first + osp_unzigzag (v[0]);
      int64_t last = first + osp_unzigzag (v[1]);
      if (first < 0 || first > 0xffffffff || last < 0 || last > 0xffffffff
          || v[2] > 0xffffffff || v[3] > 0xffffffff || cap - i < 4)
        return -1;
      out[i++] = (uint32_t) first;
      out[i++] = (uint32_t) last;
      out[i++] = (uint32_t) v[2];
      out[i++] = (uint32_t) v[3];
      for (uint64_t s = 0; s < v[3]; s++)
        {
          uint64_t dst, flags;
          if (osp_unpack_u (&p, end, &dst) != 0
              || osp_unpack_u (&p, end, &flags) != 0 || dst > 0xffffffff
              || flags > 0xffffffff || cap - i < 2)
            return -1;
          out[i++] = dst == 0 ? 0xffffffffu : (uint32_t) (dst - 1);
          out[i++] = (uint32_t) flags;
        }
      prev_first = first;
    }
  return p == end ? (int64_t) i : -1;
}

/* Pack N words W (64-bit path values if PATHS, else 32-bit words widened)
   into OUT (room for 10 bytes a word); the bytes written. */
static inline size_t
osp_pack_words (const uint64_t *w, size_t n, int paths, uint8_t *out)
{
  size_t len = 0;
  for (size_t i = 0; i < n; i++)
    len += osp_pack_u (out + len,
                       paths ? (w[i] == UINT64_MAX ? 0 : w[i] + 1) : w[i]);
  return len;
}

/* Unpack LEN bytes IN into path values OUT64 or 32-bit words OUT32 (one of
   them not NULL; room for CAP words); the words written, or -1. */
static inline int64_t
osp_unpack_words (const uint8_t *in, size_t len, uint64_t *out64,
                  uint32_t *out32, size_t cap)
{
  const uint8_t *p = in, *end = in + len;
  size_t i = 0;
  while (p < end)
    {
      uint64_t v;
      if (osp_unpack_u (&p, end, &v) != 0 || i == cap
          || (out32 && v > 0xffffffff))
        return -1;
      if (out64)
        out64[i++] = v == 0 ? UINT64_MAX : v - 1;
      else
        out32[i++] = (uint32_t) v;
    }
  return (int64_t) i;
}

#endif
