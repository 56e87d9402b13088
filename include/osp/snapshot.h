/* SPDX-License-Identifier: MIT */
/* osp/snapshot.h - a snapshot file: one profile view (osp/view.h) on disk
 * (format version OSP_SNAP_MAJOR.OSP_SNAP_MINOR).
 *
 * A snapshot is what ospview showed, kept: the runtime writes one at exit
 * or on a signal (OSP_OPTIONS snapshot=FILE, snapshot_signal=SIG), ospview
 * saves the live view (key s, --save FILE), and merges them (--merge).  It
 * is self-contained: the view carries the functions, source file names,
 * block line ranges and edges, the hot subpaths, Ball-Larus paths, prefix
 * forest, statistics and the run (program, arguments, pid, times,
 * OSP_OPTIONS), so it opens without the binary, the sources or the
 * process.
 *
 *   [0, header_size)                   struct osp_snap_header
 *   [view_offset, view_offset + view_size)   the view, byte for byte as
 *                                      published (8-aligned offset)
 * and nothing after it: the file's size is view_offset + view_size.
 *
 * Every integer is little-endian (the byte_order field holds
 * OSP_SNAP_BYTE_ORDER as written, so a file from a big-endian writer is
 * refused by name rather than misread).  Two checksums cover the file,
 * CRC-32 as zlib's: header_crc32 over the header with that field zero,
 * view_crc32 over the view's bytes; inside the view every section has its
 * own (osp/view.h), so a reader names the damaged part.
 *
 * Writers create a temporary file in the destination's directory and
 * rename it over the destination: a reader never sees half a snapshot,
 * and an interrupted writer leaves the old file in place.
 *
 * A reader checks, before trusting anything: the file is at least a
 * header long and at most OSP_SNAP_MAX_BYTES, the magic, byte_order, major
 * (a newer minor may grow the header: header_size >= what the reader
 * knows), header_crc32, view_offset 8-aligned and at or after header_size,
 * view_offset + view_size equal to the file's size, view_crc32, and then
 * the view as osp/view.h says.
 */
#ifndef OSP_SNAPSHOT_H
#define OSP_SNAPSHOT_H

#include <stdint.h>

#define OSP_SNAP_MAGIC "OSPSNAP\001" /* 8 bytes */
#define OSP_SNAP_MAJOR 1u
/* Minor 1: the same header; the view (osp/view.h minor 2) carries each
   function's source digest (FNSRC).  A 1.0 file still opens: its view
   has no digests, so ospview shows no source text from it. */
#define OSP_SNAP_MINOR 1u
#define OSP_SNAP_BYTE_ORDER 0x01020304u
/* Readers refuse larger files (a view of a huge program is a few MB). */
#define OSP_SNAP_MAX_BYTES (1ull << 32)
/* Conventional file name suffix (ospview's s key, documentation). */
#define OSP_SNAP_SUFFIX ".ospsnap"

enum osp_snap_flags
{
  OSP_SNAP_MERGED = 1u << 0,  /* made by merging snapshots (ospview
                                 --merge): the run section describes the
                                 first input, the stat merged_snapshots
                                 counts them */
  OSP_SNAP_AT_EXIT = 1u << 1, /* written by the runtime at exit */
  OSP_SNAP_SIGNAL = 1u << 2,  /* written by the runtime on snapshot_signal */
  OSP_SNAP_VIEWER = 1u << 3   /* saved by ospview from a live process */
};

struct osp_snap_header
{
  char magic[8];         /* OSP_SNAP_MAGIC */
  uint32_t byte_order;   /* OSP_SNAP_BYTE_ORDER as the writer stored it */
  uint16_t major, minor;
  uint32_t header_size;  /* sizeof (struct osp_snap_header) of the writer */
  uint32_t header_crc32; /* of the header_size bytes, this field zero */
  uint64_t view_offset;  /* from the file's start, 8-aligned */
  uint64_t view_size;    /* bytes of the view */
  uint32_t view_crc32;   /* of the view's bytes */
  uint32_t flags;        /* enum osp_snap_flags */
  uint64_t saved_ns;     /* CLOCK_REALTIME when the file was written */
  char writer[32];       /* e.g. "libosprt 0.7", "ospview 0.7" (NUL-ended) */
};

#endif
