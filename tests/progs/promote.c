/* SPDX-License-Identifier: GPL-3.0-or-later */
/* promote.c - the shapes plugin/promote.cc must follow (tests/promote.sh): an interpreter
 * whose dispatch calls functions (the countdown reloaded after each call), the same dispatch
 * through a computed goto (its PHIs on abnormal edges), recursion, a call in tail position (it
 * must stay a jump), a noreturn call on a path never taken, and a function that calls setjmp
 * (left alone: its countdown stays in memory). */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned sink;

__attribute__ ((noinline)) static unsigned
mix (unsigned a, unsigned b)
{
  return (a * 2654435761u) ^ (b + 0x9e3779b9u);
}

__attribute__ ((noinline)) static void
fail (const char *why)
{
  fprintf (stderr, "promote: %s\n", why);
  exit (3);
}

/* A switch dispatch whose opcodes call mix() in some cases. */
__attribute__ ((noinline)) static unsigned
run_switch (const unsigned char *code, unsigned n, unsigned steps)
{
  unsigned acc = 1, pc = 0;
  for (unsigned s = 0; s < steps; s++)
    {
      switch (code[pc])
        {
        case 0: acc += 3; break;
        case 1: acc = mix (acc, s); break;
        case 2: if (acc & 1) acc ^= s; else acc += s >> 1; break;
        case 3: acc = mix (acc, acc >> 3) + 1; break;
        default: if (acc == 0xdeadbeefu) fail ("impossible"); acc -= 1; break;
        }
      pc = (pc + 1 + (acc & 1)) % n;
    }
  return acc;
}

/* The same through labels as values (GCC's computed goto). */
__attribute__ ((noinline)) static unsigned
run_goto (const unsigned char *code, unsigned n, unsigned steps)
{
  static void *const op[] = { &&op0, &&op1, &&op2, &&op3, &&op4 };
  unsigned acc = 1, pc = 0, s = 0;
#define NEXT                                                                  \
  do                                                                          \
    {                                                                         \
      pc = (pc + 1 + (acc & 1)) % n;                                          \
      if (++s == steps)                                                       \
        return acc;                                                           \
      goto *op[code[pc] % 5];                                                 \
    }                                                                         \
  while (0)
  goto *op[code[pc] % 5];
op0:
  acc += 3;
  NEXT;
op1:
  acc = mix (acc, s);
  NEXT;
op2:
  if (acc & 1)
    acc ^= s;
  else
    acc += s >> 1;
  NEXT;
op3:
  acc = mix (acc, acc >> 3) + 1;
  NEXT;
op4:
  acc -= 1;
  NEXT;
#undef NEXT
}

__attribute__ ((noinline)) static unsigned
depth (unsigned n)
{
  if (n < 2)
    return n;
  return depth (n - 1) + depth (n - 2) + (n & 1);
}

/* Counts down in tail position (tests/tailcalls.sh checks that such calls stay jumps). */
__attribute__ ((noinline)) static unsigned long
tail (unsigned long n, unsigned long acc)
{
  if (n == 0)
    return acc;
  if (n % 7 == 3)
    acc += n;
  return tail (n - 1, acc ^ (n << 1));
}

static jmp_buf env;

__attribute__ ((noinline)) static void
bounce (unsigned i)
{
  if (i % 3 == 0)
    longjmp (env, (int) i + 1);
}

__attribute__ ((noinline)) static unsigned
jumps (unsigned n)
{
  volatile unsigned hits = 0;
  for (volatile unsigned i = 0; i < n; i++)
    {
      int r = setjmp (env);
      if (r == 0)
        bounce (i);
      else
        hits += (unsigned) r & 3;
    }
  return hits;
}

int
main (int argc, char **argv)
{
  unsigned steps = argc > 1 ? (unsigned) atoi (argv[1]) : 200000;
  unsigned char code[61];
  for (unsigned i = 0; i < sizeof code; i++)
    code[i] = (unsigned char) ((i * 7 + 3) % 5);
  printf ("switch %u\n", run_switch (code, sizeof code, steps));
  printf ("goto %u\n", run_goto (code, sizeof code, steps));
  printf ("depth %u\n", depth (22));
  printf ("tail %lu\n", tail (20000, 1));
  printf ("jumps %u\n", jumps (steps / 100));
  sink = steps;
  return 0;
}
