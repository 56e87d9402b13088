/* viewer-mutate.c - a self-contained mutation fuzzer for viewer/fuzz-view.c
 * when clang's libFuzzer is not available (tests/viewer-fuzz.sh builds it
 * with gcc -fsanitize=address,undefined).
 *
 *   viewer-mutate SECONDS SEED-FILE...
 *
 * Why this shape: a blind byte fuzzer would almost never get past the
 * section checksums, so the target parses every view twice, as it is and
 * with the checksums of every section inside it recomputed
 * (fuzz-view.c).  The mutations mix generic ones (bit flips,
 * interesting integers, inserting, deleting, truncating, copying ranges)
 * with structured ones that aim at what view_parse must check: a section
 * table entry's offset, count, size or kind, or a field of an element of
 * a section (indices, lengths, string offsets, parents, depths).
 * Segments (inputs with the segment magic) get their view, in the buffer
 * `current' names, mutated the same way.  The seed of the random numbers
 * is printed ($MUTATE_SEED sets it); the input of a crash is saved to
 * $MUTATE_CRASH (default ./mutate-crash.bin) by the sanitizer's death
 * callback.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sanitizer/common_interface_defs.h>

#include "osp/shm.h"
#include "osp/view.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);
extern unsigned long fuzz_view_accepted, fuzz_view_refused;

#define MAX_INPUT (1u << 20)

static uint64_t rng_state;

static uint64_t
rnd (void)
{
  uint64_t x = rng_state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return rng_state = x;
}

static uint64_t
below (uint64_t n)
{
  return n ? rnd () % n : 0;
}

static unsigned char *cur;
static size_t cur_len;

static void
save_crash (void)
{
  const char *p = getenv ("MUTATE_CRASH");
  FILE *f = fopen (p ? p : "mutate-crash.bin", "wb");
  if (f)
    {
      fwrite (cur, 1, cur_len, f);
      fclose (f);
    }
}

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

static uint64_t
interesting (size_t size)
{
  static const uint64_t v[] = { 0, 1, 2, 3, 7, 8, 16, 63, 64, 0x7f, 0x80,
                                0xff, 0x100, 0xffff, 0x7fffffff,
                                0x80000000, 0xffffffff, 0x100000000ull,
                                0x7fffffffffffffffull, UINT64_MAX,
                                UINT64_MAX - 7 };
  switch (below (4))
    {
    case 0:
      return v[below (sizeof v / sizeof v[0])];
    case 1:
      return size + below (3) - 1;
    case 2:
      return below (64);
    default:
      return rnd ();
    }
}

static void
put_le (unsigned char *p, uint64_t x, int n)
{
  memcpy (p, &x, (size_t) n); /* little-endian machine */
}

/* Where the view is in BUF: the whole input, or the current buffer of a
   segment.  0 if there is none. */
static int
locate_view (unsigned char *buf, size_t len, size_t *off, size_t *vlen)
{
  if (len >= 8 && memcmp (buf, OSP_SHM_MAGIC, 8) == 0)
    {
      struct osp_shm_header h;
      if (len < sizeof h)
        return 0;
      memcpy (&h, buf, sizeof h);
      uint64_t b = h.current, o, l;
      if (b > 1)
        return 0;
      o = h.buf_off[b];
      l = h.len[b];
      if (o > len || l > len - o)
        return 0;
      *off = (size_t) o;
      *vlen = (size_t) l;
      return 1;
    }
  *off = 0;
  *vlen = len;
  return 1;
}

/* The section table of the view at V (VLEN bytes): where it is and how
   many entries fit (the entries are copied in and out with memcpy: after
   a mutation nothing need be aligned). */
static unsigned char *
table (unsigned char *v, size_t vlen, uint32_t *n)
{
  struct osp_view_header h;
  if (vlen < sizeof h)
    return NULL;
  memcpy (&h, v, sizeof h);
  if (h.header_size > vlen)
    return NULL;
  uint64_t room = (vlen - h.header_size) / sizeof (struct osp_view_section);
  *n = h.nsections < room ? h.nsections : (uint32_t) room;
  return v + h.header_size;
}

static void
get_sec (const unsigned char *t, uint32_t i, struct osp_view_section *s)
{
  memcpy (s, t + i * sizeof *s, sizeof *s);
}

static void
set_sec (unsigned char *t, uint32_t i, const struct osp_view_section *s)
{
  memcpy (t + i * sizeof *s, s, sizeof *s);
}

static int
inside (const struct osp_view_section *s, size_t vlen)
{
  return s->elem_size && s->offset <= vlen
         && s->count <= (vlen - s->offset) / s->elem_size;
}

/* A structured mutation of the view in BUF; 0 if there was nothing to
   aim at. */
static int
mutate_view (unsigned char *buf, size_t len)
{
  size_t off, vlen;
  uint32_t n = 0;
  if (!locate_view (buf, len, &off, &vlen))
    return 0;
  unsigned char *v = buf + off;
  unsigned char *t = table (v, vlen, &n);
  if (t == NULL || n == 0)
    return 0;
  uint32_t which = (uint32_t) below (n);
  struct osp_view_section s;
  get_sec (t, which, &s);
  if (below (4) == 0)
    {
      /* the table entry */
      switch (below (5))
        {
        case 0:
          s.offset = below (2) ? interesting (vlen)
                               : s.offset + 8 * below (5) - 16;
          break;
        case 1:
          s.count = below (2) ? interesting (vlen) : s.count + below (5) - 2;
          break;
        case 2:
          s.elem_size = (uint32_t) (below (2)
                                        ? interesting (vlen)
                                        : s.elem_size + 8 * below (3) - 8);
          break;
        case 3:
          s.kind = (uint32_t) below (12);
          break;
        default:
          s.crc32 ^= 1u << below (32);
        }
      set_sec (t, which, &s);
      return 1;
    }
  if (!inside (&s, vlen) || s.count == 0)
    return 0;
  /* a field of an element: a 4-byte slot (or 8 at an 8-aligned place)
     set to an interesting value or a nearby index */
  uint64_t e = below (s.count);
  size_t esz = s.elem_size;
  unsigned char *el = v + s.offset + e * esz;
  if (esz < 4)
    {
      el[0] = (unsigned char) interesting (vlen);
      return 1;
    }
  size_t slot = 4 * below (esz / 4);
  uint64_t x = below (3) == 0 ? interesting (vlen) : below (s.count + 4);
  if (slot % 8 == 0 && slot + 8 <= esz && below (2))
    put_le (el + slot, x, 8);
  else
    put_le (el + slot, x, 4);
  return 1;
}

static size_t
mutate (unsigned char *buf, size_t len)
{
  switch (below (9))
    {
    case 0: /* bit flip */
      if (len)
        buf[below (len)] ^= (unsigned char) (1u << below (8));
      break;
    case 1: /* random byte */
      if (len)
        buf[below (len)] = (unsigned char) rnd ();
      break;
    case 2: /* interesting integer, aligned */
      {
        int w = 1 << below (4);
        if (len >= (size_t) w)
          put_le (buf + below (len / (size_t) w) * (size_t) w,
                  interesting (len), w);
      }
      break;
    case 3: /* insert */
      {
        size_t k = 1 + below (16), at = below (len + 1);
        if (len + k <= MAX_INPUT)
          {
            memmove (buf + at + k, buf + at, len - at);
            for (size_t i = 0; i < k; i++)
              buf[at + i] = (unsigned char) rnd ();
            len += k;
          }
      }
      break;
    case 4: /* delete */
      if (len)
        {
          size_t at = below (len), k = 1 + below (len - at < 64 ? len - at : 64);
          memmove (buf + at, buf + at + k, len - at - k);
          len -= k;
        }
      break;
    case 5: /* truncate */
      if (len)
        len = below (len);
      break;
    case 6: /* copy a range over another */
      if (len > 8)
        {
          size_t a = below (len), b = below (len), k = 1 + below (64);
          if (a + k > len)
            k = len - a;
          if (b + k > len)
            k = len - b;
          memmove (buf + b, buf + a, k);
        }
      break;
    default: /* structured */
      if (!mutate_view (buf, len) && len)
        buf[below (len)] ^= 0xff;
    }
  return len;
}

static unsigned char *
load (const char *path, size_t *len)
{
  FILE *f = fopen (path, "rb");
  if (f == NULL)
    {
      perror (path);
      exit (99);
    }
  unsigned char *b = malloc (MAX_INPUT);
  if (b == NULL)
    exit (99);
  *len = fread (b, 1, MAX_INPUT, f);
  fclose (f);
  return b;
}

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "usage: viewer-mutate SECONDS SEED-FILE...\n");
      return 99;
    }
  double seconds = atof (argv[1]);
  int nseeds = argc - 2;
  unsigned char **seeds = calloc ((size_t) nseeds, sizeof *seeds);
  size_t *lens = calloc ((size_t) nseeds, sizeof *lens);
  cur = malloc (MAX_INPUT);
  if (seeds == NULL || lens == NULL || cur == NULL)
    return 99;
  for (int i = 0; i < nseeds; i++)
    seeds[i] = load (argv[i + 2], &lens[i]);
  const char *sd = getenv ("MUTATE_SEED");
  rng_state = sd ? strtoull (sd, NULL, 0) : (uint64_t) time (NULL) * 2654435761u;
  if (rng_state == 0)
    rng_state = 1;
  printf ("viewer-mutate: seed %llu, %d seed inputs, %.0f s\n",
          (unsigned long long) rng_state, nseeds, seconds);
  fflush (stdout);
  __sanitizer_set_death_callback (save_crash);

  /* the seeds as they are first */
  for (int i = 0; i < nseeds; i++)
    {
      memcpy (cur, seeds[i], lens[i]);
      cur_len = lens[i];
      LLVMFuzzerTestOneInput (cur, cur_len);
    }
  unsigned long execs = 0;
  double end = now () + seconds;
  while (execs % 256 != 0 || now () < end)
    {
      int i = (int) below ((uint64_t) nseeds);
      memcpy (cur, seeds[i], lens[i]);
      cur_len = lens[i];
      int rounds = 1 + (int) below (4);
      for (int r = 0; r < rounds; r++)
        cur_len = mutate (cur, cur_len);
      LLVMFuzzerTestOneInput (cur, cur_len);
      execs++;
    }
  printf ("viewer-mutate: %lu inputs, views accepted %lu, refused %lu\n",
          execs, fuzz_view_accepted, fuzz_view_refused);
  for (int i = 0; i < nseeds; i++)
    free (seeds[i]);
  free (seeds);
  free (lens);
  free (cur);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */
