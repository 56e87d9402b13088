/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>

unsigned long make_work (unsigned long n);

int
main (void)
{
  printf ("make %lu\n", make_work (100000));
  return 0;
}
