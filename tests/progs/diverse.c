/* Program for tests/precision.sh: a high-diversity workload in phases, like a scripting
   language's interpreter running a script (the Lua run).  Each round runs
     1. a bytecode interpreter (a switch over 64 opcodes, each with a data-dependent branch)
        over a program of uniformly pseudo-random opcodes: thousands of distinct subpaths of
        every length (hundreds of length 2), which fill every table of the hot-list;
     2. a tight loop, whose few subpaths are the hottest of the run;
     3. a recursive function (calls and returns);
     4. an insertion sort of pseudo-random numbers.
   Usage: diverse ROUNDS.  The work grows in proportion to ROUNDS (same phases, same mix),
   so two runs differ only in length.  Prints a checksum that does not depend on
   instrumentation. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NCODE 4096
#define NOPS 64

static uint64_t rng = 88172645463325252u;

static uint32_t next_random (void)
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t) (rng >> 16);
}

static unsigned char code[NCODE];

/* Every opcode about equally often: thousands of distinct subpaths of every length. */
static void make_code (void)
{
  for (int i = 0; i < NCODE; i++)
    code[i] = (unsigned char) (next_random () % NOPS);
}

/* Case K: a branch on bit K % 16 of the accumulator, two different updates. */
#define OP(k)                                                                     \
  case k:                                                                         \
    if (acc >> ((k) % 16) & 1)                                                    \
      acc = acc * (2 * (k) + 3) + pc;                                             \
    else                                                                          \
      acc = (acc ^ (acc >> ((k) % 13 + 1))) + (k);                                  \
    break;
#define OP8(k) OP (k) OP (k + 1) OP (k + 2) OP (k + 3) OP (k + 4) OP (k + 5) OP (k + 6) OP (k + 7)

static __attribute__((noinline)) uint64_t run_vm (uint64_t acc)
{
  for (int pc = 0; pc < NCODE; pc++) {
    switch (code[pc]) {
      OP8 (0) OP8 (8) OP8 (16) OP8 (24) OP8 (32) OP8 (40) OP8 (48) OP8 (56)
    default:
      acc++;
      break;
    }
  }
  return acc;
}

/* The hot loop: a few blocks run most often, the top of the exact profile. */
static __attribute__((noinline)) uint64_t hot_loop (int n)
{
  uint64_t h = 1;
  for (int i = 0; i < n; i++)
    h = h * 6364136223846793005u + (uint64_t) i;
  return h;
}

static __attribute__((noinline)) uint64_t fib (int n)
{
  return n < 2 ? (uint64_t) n : fib (n - 1) + fib (n - 2);
}

static __attribute__((noinline)) uint64_t isort (int n)
{
  static uint32_t a[400];
  for (int i = 0; i < n; i++)
    a[i] = next_random ();
  for (int i = 1; i < n; i++) {
    uint32_t v = a[i];
    int j = i - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
  uint64_t h = 0;
  for (int i = 0; i < n; i++)
    h = h * 31 + a[i];
  return h;
}

int main (int argc, char **argv)
{
  if (argc != 2 || atoi (argv[1]) <= 0) {
    fprintf (stderr, "usage: diverse ROUNDS\n");
    return 2;
  }
  int rounds = atoi (argv[1]);
  make_code ();
  uint64_t sum = 0, acc = 1;
  for (int r = 0; r < rounds; r++) {
    for (int i = 0; i < 40; i++)
      acc = run_vm (acc);
    sum += hot_loop (1000000);
    sum += fib (18);
    sum ^= isort (200);
  }
  printf ("diverse %d checksum=%016llx\n", rounds, (unsigned long long) (sum ^ acc));
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */
