/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>

unsigned long cmake_work (unsigned long n);

int
main (void)
{
  printf ("cmake %lu\n", cmake_work (100000));
  return 0;
}
