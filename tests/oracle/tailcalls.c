/* oracle program: recursion through calls in tail position (tests/tailcalls.sh, plugin/tailcalls.cc).
 *
 * The shapes of plugin/tailcalls.cc's header comment:
 *   - is_even/is_odd: mutual recursion, the call's value merged with a constant by a PHI in a
 *     block that only returns (a sibling call at -O2);
 *   - walk: self recursion in a void function, the call falling into the return block (GCC's
 *     tail-recursion elimination makes it a loop);
 *   - ping/pong: the call and its return in one block (pong), through a function pointer, so
 *     that neither is inlined into the other;
 *   - spin: a switch whose cases return a call's value through a local copy, a ternary whose
 *     join and the switch's join lie between the call and the return (a return tree of several
 *     blocks);
 *   - take/give: mutual recursion returning a struct; put/get: void mutual recursion;
 *   - hop_a/hop_b: calls returned from both arms of an if-else, where GCC's early return
 *     predictor leaves a hint after each call until the pass profile_estimate strips it;
 *   - size_of/measure: a switch's cases join in a block that holds the default case's label
 *     and returns the value converted to a type of the same size (so does measure).
 * Usage: tailcalls [N], N = 1000 by default (gcov's -O0 build makes real calls); with N = 10
 * million the recursion fits an 8 MB stack only if the calls are jumps.  */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__ ((noinline, noclone))

NOINLINE int is_odd (long n);

NOINLINE int
is_even (long n)
{
  if (n == 0)
    return 1;
  return is_odd (n - 1);
}

NOINLINE int
is_odd (long n)
{
  if (n == 0)
    return 0;
  return is_even (n - 1);
}

static volatile long sink;

NOINLINE void
walk (long n)
{
  if (n == 0)
    return;
  sink += n & 7;
  walk (n - 1);
}

NOINLINE long ping (long n, long acc);
long (*volatile bounce) (long, long) = ping;

NOINLINE long
pong (long n, long acc)
{
  return bounce (n - 1, acc + (n & 3));
}

NOINLINE long
ping (long n, long acc)
{
  if (n <= 0)
    return acc;
  return pong (n, acc ^ n);
}

NOINLINE unsigned long
spin (long n, unsigned long acc)
{
  switch (n & 3)
    {
    case 0:
      if (n <= 0)
        return acc;
      return spin (n - 1, acc + 1);
    case 1:
      return spin (n - 1, acc ^ n);
    case 2:
      {
        unsigned long r = spin (n - 1, acc - 2);
        return r;
      }
    default:
      return n > 0
        ? spin (n - 1, acc * 3)
        : acc;
    }
}

struct pair
{
  long a, b;
};

NOINLINE struct pair give (long n, struct pair acc);

NOINLINE struct pair
take (long n, struct pair acc)
{
  acc.a += n;
  return give (n - 1, acc);
}

NOINLINE struct pair
give (long n, struct pair acc)
{
  if (n <= 0)
    return acc;
  acc.b ^= n;
  return take (n, acc);
}

NOINLINE void get (long n);

NOINLINE void
put (long n)
{
  sink++;
  get (n);
}

NOINLINE void
get (long n)
{
  if (n > 0)
    put (n - 1);
}

NOINLINE long hop_b (long n, long acc);

NOINLINE long
hop_a (long n, long acc)
{
  if (n <= 0)
    return acc;
  else if (n & 1)
    return hop_b (n - 1, acc + 1);
  else
    return hop_b (n - 1, acc ^ n);
}

NOINLINE long
hop_b (long n, long acc)
{
  if (n & 4)
    return hop_a (n - 1, acc * 5);
  else
    return hop_a (n - 1, acc + 7);
}

NOINLINE unsigned long measure (long n, unsigned long acc);

NOINLINE long
size_of (long n, unsigned long acc)
{
  unsigned long r = acc;
  switch (n % 3)
    {
    case 0:
      r = measure (n - 1, acc + 3);
      break;
    case 1:
      r = measure (n - 1, acc ^ 5);
      break;
    case 2:
      r = measure (n - 1, acc * 7);
      break;
    default:;
    }
  return (long) r;
}

NOINLINE unsigned long
measure (long n, unsigned long acc)
{
  if (n <= 0)
    return acc;
  return size_of (n, acc + 1);
}

int
main (int argc, char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 1000;
  printf ("is_even (%ld) = %d\n", n, is_even (n));
  walk (n);
  printf ("walk: %ld\n", (long) sink);
  printf ("ping: %ld\n", ping (n, 0));
  printf ("spin: %lu\n", spin (n, 0));
  struct pair zero = { 0, 0 };
  struct pair p = give (n, zero);
  printf ("give: %ld %ld\n", p.a, p.b);
  put (n);
  printf ("put: %ld\n", (long) sink);
  printf ("hop: %ld\n", hop_a (n, 0));
  printf ("measure: %lu\n", measure (n, 0));
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */
