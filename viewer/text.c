/* SPDX-License-Identifier: GPL-3.0-or-later */
/* text.c - the viewer's one rule for what it writes: strings from a view
 * made harmless, and numbers from a view made readable (ospview.h).
 *
 * Why one file: names, the program and its arguments come from the
 * profiled program (or from whoever wrote a snapshot file), and a view's
 * doubles may be anything finite.  Every text output - the batch screens,
 * --diff's text, the exports, every message - goes through the same
 * walker and the same number formatting, so that no output path can be
 * the one that forgot (the terminal UI draws through tui.c's put_text,
 * which replaces what is not printable in the same way).
 *
 * Strings: valid UTF-8 out, whatever came in (bad bytes become U+FFFD);
 * C0 controls, DEL and C1 controls (U+0080..U+009F, which some terminals
 * obey as CSI, OSC...) become '?' in text and DOT, \uXXXX escapes in JSON.
 * Numbers: see ospview.h (saturating arithmetic, one formatting rule).
 * And the seed of the readers' hash tables (ospview_hash_seed), which
 * keeps a hostile view from choosing names that all collide.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, getpid */
#include "export.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- strings: valid UTF-8 out, whatever came in ---------------------- */

/* The length of the valid UTF-8 sequence at P (NUL-terminated), 0 if the
   bytes there are not one. */
static size_t
utf8_seq (const unsigned char *p)
{
  unsigned c = p[0];
  if (c < 0x80)
    return 1;
  size_t n;
  unsigned lo = 0x80, hi = 0xbf;
  if (c >= 0xc2 && c <= 0xdf)
    n = 2;
  else if (c >= 0xe0 && c <= 0xef)
    {
      n = 3;
      if (c == 0xe0)
        lo = 0xa0;
      else if (c == 0xed)
        hi = 0x9f;
    }
  else if (c >= 0xf0 && c <= 0xf4)
    {
      n = 4;
      if (c == 0xf0)
        lo = 0x90;
      else if (c == 0xf4)
        hi = 0x8f;
    }
  else
    return 0;
  if (p[1] < lo || p[1] > hi)
    return 0;
  for (size_t i = 2; i < n; i++)
    if (p[i] < 0x80 || p[i] > 0xbf)
      return 0;
  return n;
}

void
ex_put (FILE *f, const char *s, enum ex_esc esc)
{
  const unsigned char *p = (const unsigned char *) s;
  while (*p)
    {
      size_t n = utf8_seq (p);
      if (n == 0)
        {
          fputs (esc == EX_JSON ? "\\ufffd" : "\xef\xbf\xbd", f);
          p++;
          continue;
        }
      if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0)
        {
          /* a C1 control (U+0080..U+009F): CSI, OSC and the like to a
             terminal that takes them in UTF-8 */
          if (esc == EX_JSON)
            fprintf (f, "\\u%04x", p[1]);
          else
            fputc ('?', f);
        }
      else if (esc != EX_PLAIN && (*p == '"' || *p == '\\'))
        fprintf (f, "\\%c", *p);
      else if (esc == EX_JSON && *p == '\n')
        fputs ("\\n", f);
      else if (esc == EX_JSON && *p == '\t')
        fputs ("\\t", f);
      else if (esc == EX_JSON && (*p < 0x20 || *p == 0x7f))
        fprintf (f, "\\u%04x", *p);
      else if (*p < 0x20 || *p == 0x7f)
        fputc ('?', f);
      else
        fwrite (p, 1, n, f);
      p += n;
    }
}

void
ospview_puts (FILE *f, const char *s)
{
  ex_put (f, s, EX_PLAIN);
}

void
ospview_error (const char *fmt, ...)
{
  char buf[2048];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (buf, sizeof buf, fmt, ap);
  va_end (ap);
  fputs ("ospview: ", stderr);
  ospview_puts (stderr, buf); /* names in it are not trusted */
  fputc ('\n', stderr);
}

/* ---- numbers (the rule of ospview.h) ------------------------------- */

double
ospview_sat (double x)
{
  if (x != x)
    return 0;
  return x > DBL_MAX ? DBL_MAX : x < -DBL_MAX ? -DBL_MAX : x;
}

const char *
ospview_num (char *buf, size_t n, double x, int prec)
{
  x = ospview_sat (x);
  if (fabs (x) < 1e12)
    snprintf (buf, n, "%.*f", prec, x);
  else
    snprintf (buf, n, "%.2e", x);
  return buf;
}

const char *
ospview_pct (char *buf, size_t n, double fraction, int prec)
{
  ospview_num (buf, n, 100.0 * ospview_sat (fraction), prec);
  size_t k = strlen (buf);
  if (k + 1 < n)
    {
      buf[k] = '%';
      buf[k + 1] = '\0';
    }
  return buf;
}

/* ---- the readers' hash seed (ospview.h) ---------------------------- */

uint64_t
ospview_hash_seed (void)
{
  static uint64_t seed;
  if (seed == 0)
    {
      /* not cryptographic, but unknown to whoever wrote the view: the
         clock, the pid and where ASLR put the stack and this code */
      struct timespec ts;
      clock_gettime (CLOCK_MONOTONIC, &ts);
      uint64_t x = (uint64_t) ts.tv_nsec ^ (uint64_t) ts.tv_sec << 32;
      x ^= (uint64_t) getpid () << 16;
      x ^= (uint64_t) (uintptr_t) &ts ^ (uint64_t) (uintptr_t) &seed << 7;
      seed = ospview_hash_mix (x) | 1;
    }
  return seed;
}

/* ---- sorting with a context (ospview.h) ----------------------------- */

/* Stable, with its context handed to every comparison, and the same on
   every libc: a merge sort.  Its order is the one stable order, which is
   glibc's qsort's (a merge sort as well while the array fits in memory),
   tie for tie.  Out of memory for the merge buffer, an insertion sort
   that moves elements by rotation gives the same order more slowly. */

/* The elements [lo, hi) of BASE reversed, byte by byte. */
static void
reverse_elems (char *base, size_t lo, size_t hi, size_t size)
{
  while (hi - lo > 1)
    {
      char *a = base + lo++ * size, *b = base + --hi * size;
      for (size_t k = 0; k < size; k++)
        {
          char t = a[k];
          a[k] = b[k];
          b[k] = t;
        }
    }
}

static void
insertion_sort (char *base, size_t n, size_t size,
                int (*cmp) (const void *, const void *, void *), void *ctx)
{
  for (size_t i = 1; i < n; i++)
    {
      /* after every element that does not compare above it */
      size_t lo = 0, hi = i;
      while (lo < hi)
        {
          size_t mid = lo + (hi - lo) / 2;
          if (cmp (base + i * size, base + mid * size, ctx) < 0)
            hi = mid;
          else
            lo = mid + 1;
        }
      if (lo < i) /* [lo, i] rotated right by one */
        {
          reverse_elems (base, lo, i, size);
          reverse_elems (base, lo, i + 1, size);
        }
    }
}

static void
merge_sort (char *base, char *tmp, size_t n, size_t size,
            int (*cmp) (const void *, const void *, void *), void *ctx)
{
  if (n < 2)
    return;
  size_t n1 = n / 2;
  char *mid = base + n1 * size, *end = base + n * size;
  merge_sort (base, tmp, n1, size, cmp, ctx);
  merge_sort (mid, tmp, n - n1, size, cmp, ctx);
  char *a = base, *b = mid, *out = tmp;
  while (a < mid && b < end)
    {
      /* the left one on a tie: stable */
      char **from = cmp (a, b, ctx) <= 0 ? &a : &b;
      memcpy (out, *from, size);
      *from += size;
      out += size;
    }
  size_t left = (size_t) (mid - a);
  memcpy (out, a, left);
  memcpy (base, tmp, (size_t) (out - tmp) + left);
}

void
ospview_sort_r (void *base, size_t n, size_t size,
                int (*cmp) (const void *, const void *, void *), void *ctx)
{
  if (n < 2)
    return;
  char *tmp = n <= SIZE_MAX / size ? malloc (n * size) : NULL;
  if (tmp == NULL)
    insertion_sort (base, n, size, cmp, ctx);
  else
    merge_sort (base, tmp, n, size, cmp, ctx);
  free (tmp);
}
