/* SPDX-License-Identifier: GPL-3.0-or-later */
unsigned long
make_work (unsigned long n)
{
  unsigned long s = 0;
  for (unsigned long i = 1; i <= n; i++)
    s += i & 1 ? i % 13 : i / 2 % 3;
  return s;
}
