/* tests/progs/safety-work.c - a small program for tests/safety-privileges.sh: some branchy work
   (so that there is a profile to report) and one line of output that depends on it.  Run
   setuid, setgid or with file capabilities by the test; its output must not change. */
#include <stdio.h>

static unsigned
step (unsigned x)
{
  return (x & 1) ? 3 * x + 1 : x / 2;
}

int
main (void)
{
  unsigned long total = 0;
  for (unsigned n = 1; n < 20000; n++)
    for (unsigned x = n; x != 1; x = step (x))
      total++;
  printf ("steps %lu\n", total);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */
