/* SPDX-License-Identifier: MIT */
/* grow.h - the one growth rule of the view format's arrays (grow.c), and
 * of ospview's, which grows its own arrays through it (ospview_grow).
 * Called from outputs and the viewer only: never from the runtime's
 * hooks, which allocate nothing. */
#ifndef OSP_GROW_H
#define OSP_GROW_H

#include <stddef.h>

/* *(T **) PP, an array of *CAP elements of SIZE bytes, grown to hold at
   least NEED, its capacity doubling from FIRST.  0, or -1 out of memory
   or when the size would overflow (the array and *CAP unchanged). */
int osp_grow (void *pp, size_t *cap, size_t need, size_t size, size_t first);

#endif
