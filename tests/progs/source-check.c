/* source-check.c - a loop with a hot line, and a call of an inline
 * function from a header (tests/source-text.sh: ospview shows this
 * file's text only while it is the file that was compiled). */
#include <stdio.h>
#include <stdlib.h>

#include "source-check.h"

static unsigned
work (unsigned n)
{
  unsigned s = 0;
  for (unsigned i = 0; i < n; i++)
    s += header_mix (i) & 7; /* HOT */
  return s;
}

int
main (int argc, char **argv)
{
  unsigned n = argc > 1 ? (unsigned) strtoul (argv[1], NULL, 10) : 100000;
  printf ("%u\n", work (n));
  return 0;
}
