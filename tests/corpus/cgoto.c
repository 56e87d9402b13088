/* osp-test: computed goto: a threaded bytecode interpreter, a label-address table, and
   an indirect jump into a loop.
   oracle: gcov-skip=run,jump_table */
#include <stdio.h>

enum { OP_PUSH, OP_ADD, OP_MUL, OP_DUP, OP_DEC, OP_JNZ, OP_SWAP, OP_DROP, OP_PRINT, OP_HALT,
       OP_MULUNDER };

static int run_calls, jump_table_calls;

static long __attribute__((noinline)) run (const int *code)
{
  run_calls++;
  static void *dispatch[] = { &&l_push, &&l_add, &&l_mul, &&l_dup, &&l_dec, &&l_jnz,
                              &&l_swap, &&l_drop, &&l_print, &&l_halt,
                              &&l_mulunder };
  long stack[64];
  int sp = 0;
  const int *pc = code;
#define NEXT goto *dispatch[*pc++]
  NEXT;
l_push:
  stack[sp++] = *pc++;
  NEXT;
l_add:
  sp--; stack[sp - 1] += stack[sp];
  NEXT;
l_mul:
  sp--; stack[sp - 1] *= stack[sp];
  NEXT;
l_dup:
  stack[sp] = stack[sp - 1]; sp++;
  NEXT;
l_dec:
  stack[sp - 1]--;
  NEXT;
l_jnz:
  {
    int target = *pc++;
    if (stack[sp - 1] != 0)
      pc = code + target;
  }
  NEXT;
l_swap:
  {
    long t = stack[sp - 1]; stack[sp - 1] = stack[sp - 2]; stack[sp - 2] = t;
  }
  NEXT;
l_drop:
  sp--;
  NEXT;
l_print:
  printf ("top %ld\n", stack[sp - 1]);
  NEXT;
l_mulunder: /* a n -> a*n n */
  stack[sp - 2] *= stack[sp - 1];
  NEXT;
l_halt:
  return sp > 0 ? stack[sp - 1] : -1;
#undef NEXT
}

static int __attribute__((noinline)) jump_table (int n)
{
  jump_table_calls++;
  static const int offsets[] = { &&a - &&a, &&b - &&a, &&c - &&a };
  int acc = 0;
  for (int i = 0; i < n; i++)
    {
      goto *(&&a + offsets[i % 3]);
    a:
      acc += 1;
      continue;
    b:
      acc += 10;
      continue;
    c:
      acc += 100;
    }
  return acc;
}

int main (void)
{
  /* acc = 1; n = 10; do { acc *= n; } while (--n); with some stack shuffling */
  static const int prog[] = {
    OP_PUSH, 1, OP_PUSH, 10,        /* acc n */
    OP_SWAP, OP_PUSH, 0, OP_ADD,    /* n acc        (pc 4: loop) */
    OP_SWAP, OP_DUP,                /* acc n n */
    OP_PUSH, 1, OP_MUL,             /* acc n n */
    OP_SWAP, OP_DROP,               /* acc n */
    OP_MULUNDER,                    /* acc*n n */
    OP_DEC, OP_JNZ, 4,              /* acc n-1 */
    OP_DROP, OP_PRINT, OP_HALT
  };
  long r = run (prog);
  static const int prog2[] = { OP_PUSH, 6, OP_PUSH, 7, OP_MUL, OP_PRINT, OP_DUP, OP_ADD, OP_HALT };
  long r2 = run (prog2);
  printf ("run %ld %ld jump_table %d\n", r, r2, jump_table (100));
  printf ("expect-calls run %d\nexpect-calls jump_table %d\n", run_calls, jump_table_calls);
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */
