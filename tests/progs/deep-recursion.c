/* tests/progs/deep-recursion.c - a recursive function of the usual shape (a loop, branches,
 * calls, values live across the recursive call), run to the depth given on the command line,
 * for tests/safety-stack.sh: under a tight `ulimit -s', the instrumented build must reach the
 * depth the plain build reaches.  The path register is not a constant at the recursive call
 * (the branch just before it), so it lives across the call: at -O0 it once took a callee-saved
 * register, whose save slot made each frame 16 bytes bigger than the plain build's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long __attribute__ ((noinline))
mix (unsigned long x, unsigned k)
{
  return (x ^ (x >> 13)) * 0x9e3779b97f4a7c15ul + k;
}

/* Walk down DEPTH levels; each level scans a small window of its own and
   combines what the level below returns with values computed before the call. */
static unsigned long __attribute__ ((noinline))
descend (unsigned depth, unsigned long seed, const unsigned char *text, size_t len)
{
  unsigned long acc = seed, low = 0;
  unsigned odd = 0;
  for (size_t i = 0; i < len; i++)
    {
      if (text[i] & 1)
        {
          acc = mix (acc, text[i]);
          odd++;
        }
      else
        low += text[i] >> 2;
    }
  if (depth == 0)
    return acc + low;
  if (odd & 1)
    acc += low;
  unsigned long below = descend (depth - 1, acc ^ depth, text, len - (len > 24));
  if (below % 3 == 0)
    below = mix (below, odd);
  else if (odd > 4)
    below ^= low;
  return below + acc * odd + low;
}


int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fprintf (stderr, "usage: deep-recursion DEPTH\n");
      return 2;
    }
  unsigned depth = (unsigned) strtoul (argv[1], NULL, 10);
  const char *text = "the quick brown fox jumps over the lazy dog, again and again";
  unsigned long r = descend (depth, 7, (const unsigned char *) text, strlen (text) - 8);
  printf ("depth %u: %lx\n", depth, r);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */
