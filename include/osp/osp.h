/* SPDX-License-Identifier: MIT */
/* osp/osp.h - what an instrumented program may ask of the osp runtime.
 *
 * Include it and link with -losprt (pkg-config --cflags --libs osp).
 * A program that is run without profiling (mode=off) or whose runtime
 * could not start gets -1 and nothing else happens.
 */
#ifndef OSP_OSP_H
#define OSP_OSP_H

#ifdef __cplusplus
extern "C" {
#endif

/* Write the current report now, in the configured report_format: to PATH
 * (written atomically: a temporary file in its directory, then renamed),
 * or, when PATH is NULL, to the destination of OSP_OPTIONS' `report'
 * (nothing is written and 0 is returned when that is `none').  Returns 0,
 * or -1 when no report could be written (one "osp: ..." line on stderr
 * says why, except for mode=off).  Safe from any program thread, at any
 * time, while other threads run; NOT from a signal handler (use
 * OSP_OPTIONS=report_signal=SIG for that). */
int osp_report (const char *path);

#ifdef __cplusplus
}
#endif

#endif /* OSP_OSP_H */
