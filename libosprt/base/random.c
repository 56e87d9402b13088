/* SPDX-License-Identifier: MIT */
/* random.c - the runtime's random numbers.
 *
 * xoshiro256** streams seeded by splitmix64 from one process seed
 * (osp_seed: seed= or drawn at start-up, printed in reports), so that a
 * run with seed= set draws the same numbers wherever they are used: the
 * subpath sampler, the path sampler and table, verify_paths' round trips.
 * The draws on a hook's path (osp_rng_next, osp_draw_geometric) are
 * inline in base.h so that they cost what they cost inside the sampler.
 */
#include "base/base.h"

/* Atomic: taking a profile reads it without a lock on a runtime thread
   (the publisher, the report thread), and a program thread writes it
   outside osp_init (a fork child's osp_sampler_reset; white-box tests
   that initialise the sampler again). */
_Atomic uint64_t osp_seed;

void
osp_rng_seed (uint64_t rng[4], uint64_t seed, uint64_t stream)
{
  uint64_t x = seed;
  x = osp_splitmix64 (&x) ^ (stream * 0xd1b54a32d192ed03u);
  for (int i = 0; i < 4; i++)
    rng[i] = osp_splitmix64 (&x);
}

/* Exact and simple: one coin per sample, 64 coins a draw.  The path table
   thins this way only when its interval doubles, a handful of times in a
   run, so the linear cost in N does not matter. */
uint64_t
osp_draw_half (uint64_t rng[4], uint64_t n)
{
  uint64_t kept = 0;
  for (; n >= 64; n -= 64)
    kept += (uint64_t) __builtin_popcountll (osp_rng_next (rng));
  if (n > 0)
    kept += (uint64_t) __builtin_popcountll (osp_rng_next (rng)
                                             & ((UINT64_C (1) << n) - 1));
  return kept;
}

