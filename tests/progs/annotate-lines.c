/* tests/progs/annotate-lines.c - a hot loop whose blocks span comments and
   an `#if 0' region, for tests/source-lines.sh: ospview --annotate must
   give those lines no share (only statement lines), and the path shares
   of a file must sum to at most 100%.  The test finds the lines by their
   STMT, COMMENT and DEAD markers.  Usage: annotate-lines [N].  stdout: a
   checksum. */
#include <stdio.h>
#include <stdlib.h>

static unsigned __attribute__ ((noinline))
mix (unsigned n, unsigned s)
{
  for (unsigned i = 0; i < n; i++)
    {
      s = s * 1103515245u + 12345u;             /* STMT */
      /* COMMENT: a comment inside the loop's body, between two
         COMMENT: statements of one block; it runs nothing. */
#if 0
      s ^= s >> 3;                              /* DEAD */
      s += i * 7u;                              /* DEAD */
#endif
      s ^= s >> 11;                             /* STMT */
      // COMMENT: another one
      s += i;                                   /* STMT */
    }
  return s;
}

int
main (int argc, char **argv)
{
  unsigned n = argc > 1 ? (unsigned) strtoul (argv[1], NULL, 10) : 1000000u;
  printf ("%u\n", mix (n, 1));
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */
