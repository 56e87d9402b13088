/* SPDX-License-Identifier: GPL-3.0-or-later */
unsigned long
cmake_work (unsigned long n)
{
  unsigned long s = 0;
  for (unsigned long i = 1; i <= n; i++)
    s += i % 5 == 0 ? i / 5 : i % 11;
  return s;
}
