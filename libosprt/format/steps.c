/* SPDX-License-Identifier: MIT */
/* steps.c - merging a path's blocks into steps, and where a long path is
 * shortened (steps.h).  A block continues the last step when it is of the
 * same function and its first line lies within that step's lines or just
 * after them (a loop's blocks, a split block); a block without lines joins
 * its function's step, and a step without lines takes the first lines
 * that come. */
#include "steps.h"

size_t
osp_steps_add (struct osp_step *steps, size_t n, uint32_t fi, uint32_t first,
               uint32_t last, uint32_t id)
{
  if (last < first)
    last = first;
  struct osp_step *prev = n ? &steps[n - 1] : NULL;
  if (prev && fi != OSP_STEP_UNKNOWN && prev->fi == fi)
    {
      if (first == 0
          || (prev->first != 0 && first >= prev->first
              && first <= prev->last + 1))
        {
          if (last > prev->last)
            prev->last = last;
          return n;
        }
      if (prev->first == 0)
        {
          prev->first = first;
          prev->last = last;
          return n;
        }
    }
  steps[n] = (struct osp_step) { fi, first, last, id };
  return n + 1;
}

size_t
osp_steps_omitted (size_t n, size_t i)
{
  if (n > OSP_STEPS_HEAD + OSP_STEPS_TAIL + 1 && i == OSP_STEPS_HEAD)
    return n - OSP_STEPS_HEAD - OSP_STEPS_TAIL;
  return 0;
}
