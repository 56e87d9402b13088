/* tests/progs/tls-lib.c - the shared library of tests/plugin-tls.sh: a loop with branches
   whose block hooks and path checks share the per-thread countdowns with the executable's
   (plugin/hooks.cc, declare_runtime_countdown). */
__attribute__ ((noinline)) unsigned long
lib_work (unsigned n)
{
  unsigned long h = 5381;
  for (unsigned i = 0; i < n; i++)
    {
      if (i % 3 == 0)
        h = h * 33 + i;
      else
        h ^= h >> 7;
    }
  return h;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */
