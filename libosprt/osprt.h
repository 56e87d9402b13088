/* SPDX-License-Identifier: MIT */
/* osprt.h - every layer of libosprt at once, for the white-box unit tests
 * (libosprt/tests/) only.
 *
 * The runtime's own files include the header of their layer, which brings
 * the layers below (doc/HACKING.md: the map, and tests/layers.sh, which
 * make check runs, refuses an include that points up, or this header in
 * the runtime):
 *
 *   base/base.h        messages, locks, arenas, random numbers, maths
 *   model/model.h      options, registry, Ball-Larus path numbering
 *   collect/collect.h  the collectors and their lifecycle table
 *   profile/profile.h  the profile taken from the collectors
 *   output/output.h    reports, views, publishing, snapshots
 *   runtime.h          start-up, exit, the ABI entry points
 */
#ifndef OSPRT_H
#define OSPRT_H

#include "runtime.h"

#endif /* OSPRT_H */
