/* tests/progs/paths-guided.c - profile-guided path numbering (tests/paths.sh): the branch in
   hot() is taken 99% of the time, against GCC's guess that an equality test fails.  Built
   with -fplugin-arg-osp-profile=REPORT of a first run, the hottest path of hot() must have
   id 0 (smart numbering gives the hottest out-edge of every block the value 0). */
#include <stdio.h>

static volatile int sink_a, sink_b;

static void __attribute__ ((noinline)) hot (int x)
{
  if (x == 7)
    sink_a++;
  else
    sink_b++;
}

int main (void)
{
  for (int i = 0; i < 10000; i++)
    hot (i % 100 ? 7 : 3);
  printf ("%d %d\n", sink_a, sink_b);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */
