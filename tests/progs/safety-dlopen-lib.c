/* tests/progs/safety-dlopen-lib.c - the library safety-dlopen.c loads: built with osp (so
   loading it starts the runtime) or plain, for tests/safety-fds.sh. */
static unsigned
step (unsigned x)
{
  return (x & 1) ? 3 * x + 1 : x / 2;
}

unsigned long
work (unsigned n)
{
  unsigned long total = 0;
  for (unsigned i = 1; i < n; i++)
    for (unsigned x = i; x != 1; x = step (x))
      total++;
  return total;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */
