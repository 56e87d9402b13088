/* osp-test: switches with hundreds of cases: a dense 512-case switch (jump table), a sparse
   300-case switch (decision tree), and a switch with shared bodies and fall-through.
   oracle: (counts compared with gcov by tests/oracle.sh) */
#include <stdio.h>

#define C1(n, e) case n: return e;
#define C4(n, e) C1 (n, e) C1 (n + 1, e + 3) C1 (n + 2, e * 5) C1 (n + 3, e ^ 0x55)
#define C16(n, e) C4 (n, e) C4 (n + 4, e + 7) C4 (n + 8, e - 11) C4 (n + 12, e * 2)
#define C64(n, e) C16 (n, e) C16 (n + 16, e + 1) C16 (n + 32, e + 2) C16 (n + 48, e + 3)
#define C256(n, e) C64 (n, e) C64 (n + 64, e + 100) C64 (n + 128, e + 200) C64 (n + 192, e + 300)

static int __attribute__((noinline)) dense (int x)
{
  switch (x)
    {
      C256 (0, x)
      C256 (256, x * 3)
    default:
      return -1;
    }
}

#define S1(n, e) case (n) * 7919: return e;
#define S4(n, e) S1 (n, e) S1 (n + 1, e + 1) S1 (n + 2, e + 2) S1 (n + 3, e + 3)
#define S20(n, e) S4 (n, e) S4 (n + 4, e) S4 (n + 8, e) S4 (n + 12, e) S4 (n + 16, e)
#define S100(n, e) S20 (n, e) S20 (n + 20, e + 5) S20 (n + 40, e + 6) S20 (n + 60, e + 7) \
  S20 (n + 80, e + 8)

static int __attribute__((noinline)) sparse (int x)
{
  switch (x)
    {
      S100 (1, 1)
      S100 (101, 50)
      S100 (201, 99)
    default:
      return 0;
    }
}

static int __attribute__((noinline)) fallthrough (int x)
{
  int r = 0;
  switch (x % 40)
    {
    case 0: r += 1; /* fall through */
    case 1: r += 2; /* fall through */
    case 2: case 3: case 4: r += 3; break;
    case 5 ... 15: r += x; /* fall through */
    case 16: r *= 2; break;
    case 17: case 19: case 21: case 23: return -x;
    case 30 ... 38: r = x / 3; break;
    default: r = 7;
    }
  return r;
}

int main (void)
{
  long a = 0, b = 0, c = 0;
  for (int i = -5; i < 600; i++)
    a += dense (i);
  for (int i = 0; i < 2500000; i += 1001)
    b += sparse (i - i % 7919 + (i % 3 == 0 ? 0 : 1));
  for (int i = 0; i < 301; i++)
    b += sparse (i * 7919);
  for (int i = 0; i < 1000; i++)
    c += fallthrough (i);
  printf ("dense %ld sparse %ld fallthrough %ld\n", a, b, c);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */
