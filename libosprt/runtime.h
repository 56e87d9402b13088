/* SPDX-License-Identifier: MIT */
/* runtime.h - libosprt's top: start-up, the exit report, the ABI entry
 * points (runtime.c, trampoline.S), which may use every layer.
 */
#ifndef OSP_RUNTIME_H
#define OSP_RUNTIME_H

#include "output/output.h"

/* ---- runtime.c ------------------------------------------------------- */

/* Initialise once (pthread_once); safe from any constructor. */
void osp_init (void);
/* __osp_block_hook when the open sample's cursor (sampler.h) cannot take
   the block: what the x86-64 trampolines call after trying the cursor
   themselves (MARK: below). */
void osp_block_hook_runtime (struct osp_fn_record *rec, uint32_t block,
                             uint64_t unused3, uint64_t unused4,
                             uintptr_t mark);
/* What the other x86-64 trampolines call: __osp_path_end,
   __osp_path_end_shared, __osp_path_ends
   and __osp_block_hooks with the trampoline's stack mark (MARK, always
   the fifth argument, %r8). */
void osp_path_end_tramp (struct osp_fn_record *rec, uint64_t path,
                         uint64_t unused3, uint64_t unused4, uintptr_t mark);
void osp_path_end_shared_tramp (struct osp_fn_record *rec, uint64_t path,
                                uint64_t unused3, uint64_t unused4,
                                uintptr_t mark);
void osp_path_ends_tramp (struct osp_fn_record *rec, uint64_t path,
                          uint64_t n, uint64_t c_tail, uintptr_t mark);
void osp_block_hooks_tramp (struct osp_fn_record *rec, const uint32_t *chain,
                            uint64_t n, uint64_t c_tail, uintptr_t mark);

#endif /* OSP_RUNTIME_H */
