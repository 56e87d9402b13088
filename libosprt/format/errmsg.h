/* SPDX-License-Identifier: MIT */
/* errmsg.h - the one-line messages of the format library's readers and
 * writers (errmsg.c): every function that can refuse its input fills a
 * caller's ERR buffer of ERRLEN bytes and returns -1. */
#ifndef OSP_ERRMSG_H
#define OSP_ERRMSG_H

#include <stddef.h>

/* Format the message into ERR (nothing when ERR is NULL or ERRLEN 0);
   returns -1, for `return osp_errf (err, errlen, ...)'. */
int osp_errf (char *err, size_t errlen, const char *fmt, ...)
    __attribute__ ((format (printf, 3, 4)));

#endif
