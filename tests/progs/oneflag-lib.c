/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/oneflag.sh: a shared library built with the one flag, loaded by programs built without
   osp (linked against it, or dlopen'ed). */
unsigned long
oneflag_lib_work (unsigned long n)
{
  unsigned long s = 0;
  for (unsigned long i = 1; i <= n; i++)
    s += i % 3 ? i % 17 : 1;
  return s;
}
