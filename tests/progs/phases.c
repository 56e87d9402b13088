/* tests/progs/phases.c - a program with two phases, for tests/viewer-recent.sh: recent mode
   (ospview --recent) and --diff between two snapshots of one process.  Usage: phases DIR.
   Phase A runs a()'s loop until the file DIR/b exists, phase B then runs b()'s loop until
   DIR/stop exists; the test creates the files, so the phases are as long as the test needs
   them to be, however loaded the machine (no clock is read).  Once in phase B it creates
   DIR/in-b, so the test knows the switch happened.  stdout: a checksum. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char path_b[4096], path_stop[4096], path_in_b[4096];

static unsigned __attribute__ ((noinline)) a (unsigned n, unsigned s)
{
  for (unsigned i = 0; i < n; i++)
    s = s * 1103515245u + 12345u; /* [A] */
  return s;
}

static unsigned __attribute__ ((noinline)) b (unsigned n, unsigned s)
{
  for (unsigned i = 0; i < n; i++)
    s = (s ^ (s >> 7)) * 2654435761u + i; /* [B] */
  return s;
}

int
main (int argc, char **argv)
{
  if (argc != 2 || strlen (argv[1]) > 4000)
    {
      fprintf (stderr, "usage: phases DIR\n");
      return 2;
    }
  snprintf (path_b, sizeof path_b, "%s/b", argv[1]);
  snprintf (path_stop, sizeof path_stop, "%s/stop", argv[1]);
  snprintf (path_in_b, sizeof path_in_b, "%s/in-b", argv[1]);
  unsigned s = 1;
  while (access (path_b, F_OK) != 0)
    s = a (200000, s);
  FILE *f = fopen (path_in_b, "w");
  if (f)
    fclose (f);
  while (access (path_stop, F_OK) != 0)
    s = b (200000, s);
  printf ("%u\n", s);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */
