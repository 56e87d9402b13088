/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench/bench.h - the scaffolding shared by the 12 benchmark programs of bench/.
 *
 * The benchmark contract (what bench/run.sh and anyone else running the programs rely on):
 *
 *   Usage:   NAME [small|default]     (no argument means default)
 *   Output:  exactly one line on stdout, either
 *              "NAME SIZE ok checksum=HEX"      and exit status 0, or
 *              "NAME SIZE FAILED: reason"       and exit status 1,
 *            where SIZE is "small" or "default" and HEX is 16 lowercase hex digits.
 *   Errors:  a bad command line prints "NAME: usage: NAME [small|default]" on stderr and exits
 *            with status 2.  Some programs treat running out of memory (or failing to start a
 *            thread) as an error of the environment rather than a result: a message on stderr
 *            and exit status 3 (bench_xmalloc and friends); the others report it as FAILED.
 *   Determinism: the work and the checksum depend only on the size: fixed-seed generators, no
 *            time, no environment, no scheduling dependence, and checksums built from values
 *            (integers, or floating-point results rounded coarsely) that are the same at -O0,
 *            -O2 and -O3 -march=native with FMA contraction.  So the line for a size is the same
 *            on every run, build and instrumentation (with or without the osp plugin), and a
 *            different line means a wrong result.
 *
 * Why the helpers are shared: every program used to carry its own copy of the argument parsing,
 * the usage line, the result line, the generators and the digests.  The copies must agree for the
 * contract to hold, so they live here once.  Each program keeps its kernel, its checks and its
 * own seed; it wraps a generator below around its own state (rng_next) so the kernel code is
 * unchanged.  Header-only, everything static inline: a program is still one .c file built with
 * "cc -O2 X.c -lm [-pthread]", the header found next to it through #include "bench.h".
 */
#ifndef OSP_BENCH_H
#define OSP_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- command line and result line -------------------------------------------------------- */

static const char *bench_name = "bench";   /* program name, set by bench_init */
static const char *bench_size = "default"; /* "small" or "default", set by bench_init */

/* Parse "NAME [small|default]": returns 1 for small, 0 for default; exits with the usage line
 * on stderr and status 2 on anything else. */
static inline int bench_init(int argc, char **argv, const char *name)
{
  bench_name = name;
  if (argc > 2 || (argc == 2 && strcmp(argv[1], "small") != 0 && strcmp(argv[1], "default") != 0)) {
    fprintf(stderr, "%s: usage: %s [small|default]\n", name, name);
    exit(2);
  }
  bench_size = argc == 2 ? argv[1] : "default";
  return strcmp(bench_size, "small") == 0;
}

/* Print the result line: FAILED with the reason when FAIL is not NULL, else ok with the
 * checksum.  Returns the exit status (1 or 0) for main to return. */
static inline int bench_report(const char *fail, uint64_t checksum)
{
  if (fail) {
    printf("%s %s FAILED: %s\n", bench_name, bench_size, fail);
    return 1;
  }
  printf("%s %s ok checksum=%016llx\n", bench_name, bench_size, (unsigned long long)checksum);
  return 0;
}

/* Print "NAME SIZE FAILED: WHY" and exit with status 1. */
_Noreturn static inline void bench_fail(const char *why)
{
  exit(bench_report(why, 0));
}

/* ---- allocation that exits with status 3 (an environment error, not a result) ------------- */

_Noreturn static inline void bench_out_of_memory(void)
{
  fprintf(stderr, "%s: out of memory\n", bench_name);
  exit(3);
}

static inline void *bench_xmalloc(size_t n)
{
  void *p = malloc(n);
  if (!p)
    bench_out_of_memory();
  return p;
}

static inline void *bench_xcalloc(size_t n, size_t size)
{
  void *p = calloc(n, size);
  if (!p)
    bench_out_of_memory();
  return p;
}

static inline void *bench_xrealloc(void *p, size_t n)
{
  p = realloc(p, n);
  if (!p)
    bench_out_of_memory();
  return p;
}

/* ---- pseudo-random generators (each program keeps its own state and seed) ----------------- */

/* xorshift64* (Vigna): STATE must not be 0. */
static inline uint64_t bench_xorshift64s(uint64_t *state)
{
  uint64_t x = *state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return x * 0x2545F4914F6CDD1DULL;
}

/* splitmix64 (Steele, Lea, Flood): any STATE. */
static inline uint64_t bench_splitmix64(uint64_t *state)
{
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* Uniform double in [0, 1) from the top 53 bits of a generator output (exact, no rounding). */
static inline double bench_unit(uint64_t bits)
{
  return (double)(bits >> 11) * (1.0 / 9007199254740992.0);
}

/* ---- checksum digests ------------------------------------------------------------------------- */

/* Mix V into the digest H (order-dependent; the JGF-style programs start from H = 0). */
static inline uint64_t bench_mix(uint64_t h, uint64_t v)
{
  h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
  return h * 0xFF51AFD7ED558CCDULL;
}

/* 64-bit FNV-1a: the offset basis to start from, N bytes at P, and the 8 bytes of V taken
 * least significant first (the same on every byte order). */
#define BENCH_FNV_BASIS 0xcbf29ce484222325ULL

static inline uint64_t bench_fnv1a(uint64_t h, const void *p, size_t n)
{
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) {
    h ^= b[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

static inline uint64_t bench_fnv1a_u64(uint64_t h, uint64_t v)
{
  for (int i = 0; i < 8; i++) {
    h ^= (v >> (8 * i)) & 0xff;
    h *= 0x100000001b3ULL;
  }
  return h;
}

#endif /* OSP_BENCH_H */
