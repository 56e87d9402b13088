/* SPDX-License-Identifier: MIT */
/* grow.h - the one growth rule of the growing arrays (grow.c): the view
 * format's, the runtime's (the registry's modules; the copies a profile
 * takes of the collectors' tables, the statistics of a view) and
 * ospview's, which grows its own through it (ospview_grow).  Never
 * called from the runtime's hooks, which allocate nothing (registering a
 * module and taking a profile do). */
#ifndef OSP_GROW_H
#define OSP_GROW_H

#include <stddef.h>

/* *(T **) PP, an array of *CAP elements of SIZE bytes, grown to hold at
   least NEED, its capacity doubling from FIRST.  0, or -1 out of memory
   or when the size would overflow (the array and *CAP unchanged). */
int osp_grow (void *pp, size_t *cap, size_t need, size_t size, size_t first);

#endif
