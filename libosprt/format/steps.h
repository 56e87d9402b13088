/* SPDX-License-Identifier: MIT */
/* steps.h - a path's blocks as the text report and ospview show them
 * (steps.c): consecutive blocks of one function whose lines continue each
 * other are one step "file:first-last", and a long path is shortened to
 * its first OSP_STEPS_HEAD and last OSP_STEPS_TAIL steps around "...".
 * One rule for the runtime's report (libosprt/output/report-subpaths.c, from the
 * registry) and the viewer's rows (viewer/screens.c, from a view), so
 * that the same path reads the same in both.  Part of libospformat.la.
 */
#ifndef OSP_STEPS_H
#define OSP_STEPS_H

#include <stddef.h>
#include <stdint.h>

struct osp_step
{
  uint32_t fi;          /* the function; OSP_STEP_UNKNOWN: not known */
  uint32_t first, last; /* its lines (0: no line information) */
  uint32_t id;          /* the first block's id, for an unknown one */
};

#define OSP_STEP_UNKNOWN UINT32_MAX

/* Steps shown before and after the "..." of a shortened path. */
#define OSP_STEPS_HEAD 8
#define OSP_STEPS_TAIL 5

/* Add the block ID of function FI with lines FIRST..LAST to the N steps at
   STEPS (room for one more): merged into the last step when it continues
   it, else a new step (a block of an unknown function always is).  The
   new number of steps. */
size_t osp_steps_add (struct osp_step *steps, size_t n, uint32_t fi,
                      uint32_t first, uint32_t last, uint32_t id);

/* Of a path of N steps shortened, how many are left out at step I ("...
   (K steps omitted) ..." instead of it and the next K - 1), or 0 when
   step I is shown. */
size_t osp_steps_omitted (size_t n, size_t i);

#endif
