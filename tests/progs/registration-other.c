/* Second translation unit of the registration test. */
__attribute__((noinline)) int other_used (int x)
{
  return x + 100;
}

int other_unused (int x)
{
  return x - 100;
}

static int other_static_helper (int x)
{
  return x / 2;
}

int other_unused_calls_static (int x)
{
  return other_static_helper (x) + 1;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */
