/* Program for tests/skip-functions.sh: functions osp must leave alone (a naked function, a
   no_instrument_function, an ifunc resolver) next to normal ones. */
#include <stdio.h>

#if defined __x86_64__
#define HAVE_NAKED 1
/* No prologue: any code in front of the asm would run with the caller's frame and break it. */
__attribute__((naked, noinline)) int naked_add (int a, int b)
{
  __asm__ ("leal (%rdi,%rsi), %eax\n\tret");
}
#endif

__attribute__((no_instrument_function, noinline)) int noinst_fn (int x)
{
  int r = 0;
  for (int i = 0; i < x; i++)
    r += i & 3;
  return r;
}

static int impl_fast (int x) { return x * 3; }
static int impl_slow (int x) { int r = 0; for (int i = 0; i < 3; i++) r += x; return r; }

/* Called by the dynamic linker while relocating, before TLS is fully set up. */
static void *resolve_triple (void)
{
  volatile int pick = 1;
  return pick ? (void *) impl_fast : (void *) impl_slow;
}
int triple (int x) __attribute__((ifunc ("resolve_triple")));

__attribute__((noinline)) int normal_fn (int x)
{
  return noinst_fn (x) + 1;
}

int main (void)
{
  int s = normal_fn (10) + triple (7) + impl_slow (2);
#ifdef HAVE_NAKED
  s += naked_add (40, 2);
#else
  s += 42;
#endif
  printf ("s %d\n", s);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */
