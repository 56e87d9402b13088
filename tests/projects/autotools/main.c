/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <stdio.h>
#include "work.h"

int
main (void)
{
  printf ("autotools %lu\n", autotools_work (100000));
  return 0;
}
