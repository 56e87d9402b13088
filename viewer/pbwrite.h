/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pbwrite.h - the bytes of a gzipped protobuf message, for ospview
 * --pprof (export-pprof.c): protobuf's wire format (varints and
 * length-delimited fields) into a growing buffer, and the gzip member
 * pprof files are wrapped in (pbwrite.c).
 *
 * Why written here and not protobuf-c: pprof's profile.proto needs five
 * field shapes (varint, packed varints, string, bytes, nested message),
 * which are a page of C; protobuf-c would add a build dependency and a
 * code generator (protoc-c) to osp's build for that page.  Why gzip as
 * stored (uncompressed) deflate blocks and not zlib: every gzip reader
 * (pprof's Go reader, Pyroscope, Parca, gunzip) reads stored blocks, the
 * CRC-32 gzip needs is the view format's own (crc32.c), and osp's build
 * needs no new library; the file is as large as the protobuf, which for
 * a view (bounded tables) is small.  gzip -9 it if size matters.
 */
#ifndef PBWRITE_H
#define PBWRITE_H

#include <stddef.h>
#include <stdint.h>

/* A message being written.  Out of memory is sticky: the writes after
   the first failure do nothing and OOM stays set, so a writer checks once
   at the end. */
struct pb
{
  unsigned char *p;
  size_t n, cap;
  int oom;
};

/* Field FIELD as a varint (wire type 0): uint64, int64 (two's
   complement, as protobuf's int64: negative values take ten bytes) and
   bool.  Zero is written too (proto3 would leave it out; readers take
   both). */
void pb_varint (struct pb *m, uint32_t field, uint64_t x);
/* Field FIELD as LEN bytes at DATA (wire type 2): bytes, string. */
void pb_bytes (struct pb *m, uint32_t field, const void *data, size_t len);
/* Field FIELD as the message SUB (wire type 2); SUB's oom carries over. */
void pb_msg (struct pb *m, uint32_t field, const struct pb *sub);
/* One varint with no field key, for a packed repeated field: append the
   values to a struct pb, then pb_msg it under the field's number. */
void pb_raw_varint (struct pb *m, uint64_t x);
/* Empty M for reuse (its buffer kept); pb_free releases it. */
void pb_clear (struct pb *m);
void pb_free (struct pb *m);

/* LEN bytes at DATA as one gzip member (RFC 1952) of stored deflate
   blocks (RFC 1951, BTYPE 00), MTIME (seconds since the epoch, 0: none)
   in its header, into OUT (a struct pb used as a byte buffer).  0, or -1
   out of memory. */
int pb_gzip (struct pb *out, const void *data, size_t len, uint32_t mtime);

#endif
