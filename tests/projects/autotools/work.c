/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include "work.h"

unsigned long
autotools_work (unsigned long n)
{
  unsigned long s = 0;
  for (unsigned long i = 1; i <= n; i++)
    s += i % 3 == 0 ? (unsigned long) sqrt ((double) i) : i % 7;
  return s;
}
