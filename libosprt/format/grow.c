/* SPDX-License-Identifier: MIT */
/* grow.c - arrays that double (grow.h).
 *
 * Why doubling: views are built by appending one element at a time, so a
 * constant factor keeps the appends amortised O(1); why one function: the
 * overflow checks are easy to get wrong once per copy.
 */
#include "grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int
osp_grow (void *pp, size_t *cap, size_t need, size_t size, size_t first)
{
  if (need <= *cap)
    return 0;
  size_t ncap = *cap ? *cap : first;
  while (ncap < need)
    {
      if (ncap > SIZE_MAX / 2)
        return -1;
      ncap *= 2;
    }
  if (ncap > SIZE_MAX / size)
    return -1;
  /* PP points at a pointer of any object type: through memcpy, not a
     cast to void **, which would read it as another type */
  void *p;
  memcpy (&p, pp, sizeof p);
  void *np = realloc (p, ncap * size);
  if (np == NULL)
    return -1;
  memcpy (pp, &np, sizeof np);
  *cap = ncap;
  return 0;
}
