/* SPDX-License-Identifier: MIT */
/* bench_counters.c - why mode=blocks counts per thread (see blockcount.c).
 *
 * Not a test: a measurement, built by hand, e.g.
 *   gcc -std=c11 -O2 -pthread -Iinclude libosprt/tests/bench_counters.c \
 *       -Llibosprt/.libs -Wl,-rpath,$PWD/libosprt/.libs -losprt -o bench
 *   OSP_OPTIONS=report=none ./bench
 * It times T threads (1 and 8) each entering the blocks of one function
 * N times with
 *   shared:     one global table, atomic_fetch_add (relaxed) per entry;
 *   per-thread: a private table, relaxed load + relaxed store per entry;
 *   runtime:    the real __osp_block_hook through the generated-code shape.
 * and prints nanoseconds per block entry (wall time / entries per thread).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "osp/abi.h"

#define NBLOCKS 16
#define N 20000000L

static _Atomic uint64_t shared[NBLOCKS];
static struct osp_fn_record rec __attribute__ ((aligned (8)));
static uint32_t cfg[NBLOCKS * 6];
static int kind;

static void *
run (void *arg)
{
  (void) arg;
  _Atomic uint64_t mine[NBLOCKS];
  memset (mine, 0, sizeof mine);
  for (long i = 0; i < N; i++)
    {
      uint32_t b = (uint32_t) i & (NBLOCKS - 1);
      if (kind == 0)
        atomic_fetch_add_explicit (&shared[b], 1, memory_order_relaxed);
      else if (kind == 1)
        atomic_store_explicit (
            &mine[b], atomic_load_explicit (&mine[b], memory_order_relaxed) + 1,
            memory_order_relaxed);
      else
        {
          uint32_t t = __osp_skip - 1;
          __osp_skip = t;
          if (t == 0)
            __osp_block_hook (&rec, b);
        }
    }
  return (void *) (uintptr_t) atomic_load (&mine[N % NBLOCKS]);
}

static double
timed (int threads)
{
  struct timespec a, b;
  pthread_t th[8];
  clock_gettime (CLOCK_MONOTONIC, &a);
  for (int t = 0; t < threads; t++)
    pthread_create (&th[t], NULL, run, NULL);
  for (int t = 0; t < threads; t++)
    pthread_join (th[t], NULL);
  clock_gettime (CLOCK_MONOTONIC, &b);
  return ((double) (b.tv_sec - a.tv_sec) * 1e9
          + (double) (b.tv_nsec - a.tv_nsec))
         / (double) N;
}

int
main (void)
{
  for (uint32_t b = 0; b < NBLOCKS; b++)
    {
      uint32_t *w = cfg + 6 * b;
      w[0] = w[1] = b + 1;
      w[2] = 0;
      w[3] = 1;
      w[4] = b + 1 < NBLOCKS ? b + 1 : OSP_BLOCK_EXIT;
      w[5] = 0;
    }
  rec.magic = OSP_FN_MAGIC;
  rec.abi_version = OSP_ABI_VERSION;
  rec.nblocks = NBLOCKS;
  rec.cfg_len = NBLOCKS * 6;
  rec.name = "bench";
  rec.file = "bench.c";
  rec.cfg = cfg;
  __osp_register_module (OSP_ABI_VERSION, &rec, &rec + 1);

  static const char *const names[] = { "shared fetch_add", "per-thread",
                                       "runtime hook" };
  printf ("%-18s %12s %12s\n", "ns per entry", "1 thread", "8 threads");
  for (kind = 0; kind < 3; kind++)
    {
      double one = timed (1), eight = timed (8);
      printf ("%-18s %12.2f %12.2f\n", names[kind], one, eight);
    }
  return 0;
}
