/* bench/interp.c - bytecode interpreter benchmark for the osp benchmark runner.
 *
 * What it is: a small stack virtual machine with a switch-dispatch loop (push/pop, locals,
 * a global memory, integer arithmetic and comparisons, jumps, calls with frames and returns),
 * plus a tiny assembler with labels that builds the bytecode of five programs in memory:
 *   fib       recursive Fibonacci (calls and returns dominate)
 *   sieve     Eratosthenes' sieve in the global memory, counting primes
 *   collatz   the longest Collatz chain below a bound (a call per start, data-dependent branch)
 *   gcdsum    the sum of gcd(i, j) over a square (a nested loop calling Euclid's loop)
 *   isort     insertion sort of LCG-generated numbers, then a polynomial hash of the result
 *
 * What it stands for: the interpreters people profile (the dispatch loop of a scripting language
 * or of a JVM, like the interpreted Java Grande codes of the OSP paper): one hot function whose
 * paths are the opcode cases, driven by the interpreted program's own control flow.
 *
 * Sizes:   small:   fib(22), primes below 50000, collatz below 10000, gcdsum 100, isort 600
 *          default: fib(31), primes below 2000000, collatz below 400000, gcdsum 400, isort 3000
 *
 * How the result is checked: fib and the prime counts against the known values (fib(22) = 17711,
 * fib(31) = 1346269, pi(50000) = 5133, pi(2000000) = 148933); collatz, gcdsum and isort against
 * the same computation written directly in C (isort's with qsort).  The checksum digests every
 * program's result and the number of bytecode instructions executed.
 *
 * Usage: interp [small|default].  Prints "interp SIZE ok checksum=HEX" and exits 0, or
 * "interp SIZE FAILED: reason" and exits 1.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

enum opcode {
  OP_HALT, OP_PUSH, OP_POP, OP_DUP, OP_LOAD, OP_STORE, OP_INC, OP_GLOAD, OP_GSTORE,
  OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_NEG,
  OP_LT, OP_LE, OP_GT, OP_EQ, OP_NE,
  OP_JMP, OP_JZ, OP_JNZ, OP_CALL, OP_RET
};

/* ---- assembler ------------------------------------------------------------------------- */

#define MAX_CODE 4096
#define MAX_LABELS 128
#define MAX_FIXUPS 512

struct assembler {
  int64_t code[MAX_CODE];
  int len;
  int label_pos[MAX_LABELS];
  int nlabels;
  int fixup_at[MAX_FIXUPS], fixup_label[MAX_FIXUPS];
  int nfixups;
};

static void asm_fail(const char *what)
{
  fprintf(stderr, "interp: assembler: %s\n", what);
  exit(3);
}

void emit(struct assembler *a, enum opcode op)
{
  if (a->len >= MAX_CODE)
    asm_fail("code full");
  a->code[a->len++] = op;
}

void emit_arg(struct assembler *a, enum opcode op, int64_t arg)
{
  emit(a, op);
  if (a->len >= MAX_CODE)
    asm_fail("code full");
  a->code[a->len++] = arg;
}

int new_label(struct assembler *a)
{
  if (a->nlabels >= MAX_LABELS)
    asm_fail("too many labels");
  a->label_pos[a->nlabels] = -1;
  return a->nlabels++;
}

void place_label(struct assembler *a, int label)
{
  a->label_pos[label] = a->len;
}

/* A jump or call to a label, resolved by asm_finish. */
static void emit_ref(struct assembler *a, enum opcode op, int label)
{
  emit_arg(a, op, 0);
  if (a->nfixups >= MAX_FIXUPS)
    asm_fail("too many fixups");
  a->fixup_at[a->nfixups] = a->len - 1;
  a->fixup_label[a->nfixups++] = label;
}

static void emit_call(struct assembler *a, int label, int nargs)
{
  emit_ref(a, OP_CALL, label);
  if (a->len >= MAX_CODE)
    asm_fail("code full");
  a->code[a->len++] = nargs;
}

void asm_finish(struct assembler *a)
{
  for (int i = 0; i < a->nfixups; i++) {
    int pos = a->label_pos[a->fixup_label[i]];
    if (pos < 0)
      asm_fail("label never placed");
    a->code[a->fixup_at[i]] = pos;
  }
}

/* ---- virtual machine ------------------------------------------------------------------- */

#define STACK_MAX 1024
#define FRAMES_MAX 4096
#define FRAME_LOCALS 8

struct frame {
  int ret_pc;
  int64_t locals[FRAME_LOCALS];
};

struct vm {
  const int64_t *code;
  int64_t stack[STACK_MAX];
  struct frame *frames;
  int64_t *mem;
  int64_t mem_size;
  uint64_t executed;
};

enum vm_status { VM_OK, VM_STACK, VM_FRAMES, VM_DIVZERO, VM_MEMORY, VM_BADOP };

static const char *const vm_status_name[] = {
  "ok", "stack overflow/underflow", "call depth exceeded", "division by zero",
  "memory access out of range", "bad opcode"};

/* Run from pc until OP_HALT; *result gets the top of the stack. */
enum vm_status vm_run(struct vm *vm, int pc, int64_t *result)
{
  const int64_t *code = vm->code;
  int64_t *st = vm->stack;
  int sp = 0;                 /* number of values on the stack */
  int fp = 0;                 /* current frame */
  struct frame *f = &vm->frames[0];
  uint64_t executed = 0;
  int64_t a, b;
  memset(f, 0, sizeof *f);
  for (;;) {
    int64_t op = code[pc++];
    executed++;
    switch (op) {
    case OP_HALT:
      vm->executed += executed;
      if (sp < 1)
        return VM_STACK;
      *result = st[sp - 1];
      return VM_OK;
    case OP_PUSH:
      if (sp >= STACK_MAX)
        return VM_STACK;
      st[sp++] = code[pc++];
      break;
    case OP_POP:
      if (sp < 1)
        return VM_STACK;
      sp--;
      break;
    case OP_DUP:
      if (sp < 1 || sp >= STACK_MAX)
        return VM_STACK;
      st[sp] = st[sp - 1];
      sp++;
      break;
    case OP_LOAD:
      if (sp >= STACK_MAX)
        return VM_STACK;
      st[sp++] = f->locals[code[pc++]];
      break;
    case OP_STORE:
      if (sp < 1)
        return VM_STACK;
      f->locals[code[pc++]] = st[--sp];
      break;
    case OP_INC:
      f->locals[code[pc++]]++;
      break;
    case OP_GLOAD:
      if (sp < 1)
        return VM_STACK;
      a = st[sp - 1];
      if (a < 0 || a >= vm->mem_size)
        return VM_MEMORY;
      st[sp - 1] = vm->mem[a];
      break;
    case OP_GSTORE: /* addr value -- */
      if (sp < 2)
        return VM_STACK;
      a = st[sp - 2];
      if (a < 0 || a >= vm->mem_size)
        return VM_MEMORY;
      vm->mem[a] = st[sp - 1];
      sp -= 2;
      break;
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_MOD:
    case OP_LT: case OP_LE: case OP_GT: case OP_EQ: case OP_NE:
      if (sp < 2)
        return VM_STACK;
      b = st[--sp];
      a = st[sp - 1];
      switch (op) {
      case OP_ADD: a += b; break;
      case OP_SUB: a -= b; break;
      case OP_MUL: a *= b; break;
      case OP_DIV:
        if (b == 0)
          return VM_DIVZERO;
        a /= b;
        break;
      case OP_MOD:
        if (b == 0)
          return VM_DIVZERO;
        a %= b;
        break;
      case OP_LT: a = a < b; break;
      case OP_LE: a = a <= b; break;
      case OP_GT: a = a > b; break;
      case OP_EQ: a = a == b; break;
      default: a = a != b; break;
      }
      st[sp - 1] = a;
      break;
    case OP_NEG:
      if (sp < 1)
        return VM_STACK;
      st[sp - 1] = -st[sp - 1];
      break;
    case OP_JMP:
      pc = (int)code[pc];
      break;
    case OP_JZ:
      if (sp < 1)
        return VM_STACK;
      if (st[--sp] == 0)
        pc = (int)code[pc];
      else
        pc++;
      break;
    case OP_JNZ:
      if (sp < 1)
        return VM_STACK;
      if (st[--sp] != 0)
        pc = (int)code[pc];
      else
        pc++;
      break;
    case OP_CALL: { /* target nargs: args move from the stack into the new frame's locals */
      int target = (int)code[pc], nargs = (int)code[pc + 1];
      if (fp + 1 >= FRAMES_MAX)
        return VM_FRAMES;
      if (sp < nargs)
        return VM_STACK;
      f = &vm->frames[++fp];
      f->ret_pc = pc + 2;
      for (int i = nargs - 1; i >= 0; i--)
        f->locals[i] = st[--sp];
      for (int i = nargs; i < FRAME_LOCALS; i++)
        f->locals[i] = 0;
      pc = target;
      break;
    }
    case OP_RET:
      if (fp == 0)
        return VM_FRAMES;
      pc = f->ret_pc;
      f = &vm->frames[--fp];
      break;
    default:
      return VM_BADOP;
    }
  }
}

/* ---- the programs ---------------------------------------------------------------------- */

/* fib(n): n < 2 ? n : fib(n - 1) + fib(n - 2).  Local 0 = n. */
void gen_fib(struct assembler *a, int fn)
{
  int rec = new_label(a);
  place_label(a, fn);
  emit_arg(a, OP_LOAD, 0); emit_arg(a, OP_PUSH, 2); emit(a, OP_LT); emit_ref(a, OP_JZ, rec);
  emit_arg(a, OP_LOAD, 0); emit(a, OP_RET);
  place_label(a, rec);
  emit_arg(a, OP_LOAD, 0); emit_arg(a, OP_PUSH, 1); emit(a, OP_SUB); emit_call(a, fn, 1);
  emit_arg(a, OP_LOAD, 0); emit_arg(a, OP_PUSH, 2); emit(a, OP_SUB); emit_call(a, fn, 1);
  emit(a, OP_ADD); emit(a, OP_RET);
}

/* sieve(n): number of primes below n, using mem[0..n).  Locals: n, i, j, count. */
void gen_sieve(struct assembler *a, int fn)
{
  int outer = new_label(a), inner = new_label(a), next = new_label(a), count = new_label(a);
  int cloop = new_label(a), skip = new_label(a), done = new_label(a);
  place_label(a, fn);
  emit_arg(a, OP_PUSH, 2); emit_arg(a, OP_STORE, 1);
  place_label(a, outer);
  emit_arg(a, OP_LOAD, 1); emit_arg(a, OP_LOAD, 1); emit(a, OP_MUL); emit_arg(a, OP_LOAD, 0);
  emit(a, OP_LT); emit_ref(a, OP_JZ, count);
  emit_arg(a, OP_LOAD, 1); emit(a, OP_GLOAD); emit_ref(a, OP_JNZ, next);
  emit_arg(a, OP_LOAD, 1); emit_arg(a, OP_LOAD, 1); emit(a, OP_MUL); emit_arg(a, OP_STORE, 2);
  place_label(a, inner);
  emit_arg(a, OP_LOAD, 2); emit_arg(a, OP_LOAD, 0); emit(a, OP_LT); emit_ref(a, OP_JZ, next);
  emit_arg(a, OP_LOAD, 2); emit_arg(a, OP_PUSH, 1); emit(a, OP_GSTORE);
  emit_arg(a, OP_LOAD, 2); emit_arg(a, OP_LOAD, 1); emit(a, OP_ADD); emit_arg(a, OP_STORE, 2);
  emit_ref(a, OP_JMP, inner);
  place_label(a, next);
  emit_arg(a, OP_INC, 1); emit_ref(a, OP_JMP, outer);
  place_label(a, count);
  emit_arg(a, OP_PUSH, 0); emit_arg(a, OP_STORE, 3); emit_arg(a, OP_PUSH, 2);
  emit_arg(a, OP_STORE, 1);
  place_label(a, cloop);
  emit_arg(a, OP_LOAD, 1); emit_arg(a, OP_LOAD, 0); emit(a, OP_LT); emit_ref(a, OP_JZ, done);
  emit_arg(a, OP_LOAD, 1); emit(a, OP_GLOAD); emit_ref(a, OP_JNZ, skip);
  emit_arg(a, OP_INC, 3);
  place_label(a, skip);
  emit_arg(a, OP_INC, 1); emit_ref(a, OP_JMP, cloop);
  place_label(a, done);
  emit_arg(a, OP_LOAD, 3); emit(a, OP_RET);
}

/* clen(x): Collatz steps from x to 1.  cmax(n): start * 1024 + steps of the longest chain
 * for starts in [1, n) (the first start of that length). */
void gen_collatz(struct assembler *a, int fn)
{
  int clen = new_label(a), loop = new_label(a), even = new_label(a), step = new_label(a);
  int end = new_label(a), l = new_label(a), no = new_label(a), inc = new_label(a);
  int done = new_label(a);
  place_label(a, clen); /* locals: x, steps */
  emit_arg(a, OP_PUSH, 0); emit_arg(a, OP_STORE, 1);
  place_label(a, loop);
  emit_arg(a, OP_LOAD, 0); emit_arg(a, OP_PUSH, 1); emit(a, OP_EQ); emit_ref(a, OP_JNZ, end);
  emit_arg(a, OP_LOAD, 0); emit_arg(a, OP_PUSH, 2); emit(a, OP_MOD); emit_ref(a, OP_JZ, even);
  emit_arg(a, OP_LOAD, 0); emit_arg(a, OP_PUSH, 3); emit(a, OP_MUL); emit_arg(a, OP_PUSH, 1);
  emit(a, OP_ADD); emit_arg(a, OP_STORE, 0); emit_ref(a, OP_JMP, step);
  place_label(a, even);
  emit_arg(a, OP_LOAD, 0); emit_arg(a, OP_PUSH, 2); emit(a, OP_DIV); emit_arg(a, OP_STORE, 0);
  place_label(a, step);
  emit_arg(a, OP_INC, 1); emit_ref(a, OP_JMP, loop);
  place_label(a, end);
  emit_arg(a, OP_LOAD, 1); emit(a, OP_RET);

  place_label(a, fn); /* locals: n, i, -, -, best, beststart */
  emit_arg(a, OP_PUSH, 1); emit_arg(a, OP_STORE, 1);
  place_label(a, l);
  emit_arg(a, OP_LOAD, 1); emit_arg(a, OP_LOAD, 0); emit(a, OP_LT); emit_ref(a, OP_JZ, done);
  emit_arg(a, OP_LOAD, 1); emit_call(a, clen, 1); emit(a, OP_DUP); emit_arg(a, OP_LOAD, 4);
  emit(a, OP_GT); emit_ref(a, OP_JZ, no);
  emit_arg(a, OP_STORE, 4); emit_arg(a, OP_LOAD, 1); emit_arg(a, OP_STORE, 5);
  emit_ref(a, OP_JMP, inc);
  place_label(a, no);
  emit(a, OP_POP);
  place_label(a, inc);
  emit_arg(a, OP_INC, 1); emit_ref(a, OP_JMP, l);
  place_label(a, done);
  emit_arg(a, OP_LOAD, 5); emit_arg(a, OP_PUSH, 1024); emit(a, OP_MUL); emit_arg(a, OP_LOAD, 4);
  emit(a, OP_ADD); emit(a, OP_RET);
}

/* gcd(a, b) by Euclid's loop; gsum(k) = sum of gcd(i, j) for 1 <= i, j <= k. */
void gen_gcdsum(struct assembler *a, int fn)
{
  int gcd = new_label(a), gl = new_label(a), ge = new_label(a);
  int li = new_label(a), lj = new_label(a), ni = new_label(a), done = new_label(a);
  place_label(a, gcd); /* locals: a, b, t */
  place_label(a, gl);
  emit_arg(a, OP_LOAD, 1); emit_ref(a, OP_JZ, ge);
  emit_arg(a, OP_LOAD, 0); emit_arg(a, OP_LOAD, 1); emit(a, OP_MOD); emit_arg(a, OP_STORE, 2);
  emit_arg(a, OP_LOAD, 1); emit_arg(a, OP_STORE, 0); emit_arg(a, OP_LOAD, 2);
  emit_arg(a, OP_STORE, 1); emit_ref(a, OP_JMP, gl);
  place_label(a, ge);
  emit_arg(a, OP_LOAD, 0); emit(a, OP_RET);

  place_label(a, fn); /* locals: k, i, j, s */
  emit_arg(a, OP_PUSH, 1); emit_arg(a, OP_STORE, 1);
  place_label(a, li);
  emit_arg(a, OP_LOAD, 1); emit_arg(a, OP_LOAD, 0); emit(a, OP_LE); emit_ref(a, OP_JZ, done);
  emit_arg(a, OP_PUSH, 1); emit_arg(a, OP_STORE, 2);
  place_label(a, lj);
  emit_arg(a, OP_LOAD, 2); emit_arg(a, OP_LOAD, 0); emit(a, OP_LE); emit_ref(a, OP_JZ, ni);
  emit_arg(a, OP_LOAD, 3); emit_arg(a, OP_LOAD, 1); emit_arg(a, OP_LOAD, 2);
  emit_call(a, gcd, 2); emit(a, OP_ADD); emit_arg(a, OP_STORE, 3);
  emit_arg(a, OP_INC, 2); emit_ref(a, OP_JMP, lj);
  place_label(a, ni);
  emit_arg(a, OP_INC, 1); emit_ref(a, OP_JMP, li);
  place_label(a, done);
  emit_arg(a, OP_LOAD, 3); emit(a, OP_RET);
}

#define LCG_A 1103515245
#define LCG_C 12345
#define LCG_M 2147483648LL
#define HASH_M 1000000007

/* isort(n): fill mem[0..n) from an LCG, insertion-sort it, return a polynomial hash.
 * Locals: n, i, j, key, x, s. */
void gen_isort(struct assembler *a, int fn)
{
  int lf = new_label(a), sort = new_label(a), ls = new_label(a), lw = new_label(a);
  int place = new_label(a), sum = new_label(a), lsum = new_label(a), end = new_label(a);
  place_label(a, fn);
  emit_arg(a, OP_PUSH, LCG_C); emit_arg(a, OP_STORE, 4);
  place_label(a, lf);
  emit_arg(a, OP_LOAD, 1); emit_arg(a, OP_LOAD, 0); emit(a, OP_LT); emit_ref(a, OP_JZ, sort);
  emit_arg(a, OP_LOAD, 4); emit_arg(a, OP_PUSH, LCG_A); emit(a, OP_MUL);
  emit_arg(a, OP_PUSH, LCG_C); emit(a, OP_ADD); emit_arg(a, OP_PUSH, LCG_M); emit(a, OP_MOD);
  emit_arg(a, OP_STORE, 4);
  emit_arg(a, OP_LOAD, 1); emit_arg(a, OP_LOAD, 4); emit_arg(a, OP_PUSH, 1000000);
  emit(a, OP_MOD); emit(a, OP_GSTORE);
  emit_arg(a, OP_INC, 1); emit_ref(a, OP_JMP, lf);
  place_label(a, sort);
  emit_arg(a, OP_PUSH, 1); emit_arg(a, OP_STORE, 1);
  place_label(a, ls);
  emit_arg(a, OP_LOAD, 1); emit_arg(a, OP_LOAD, 0); emit(a, OP_LT); emit_ref(a, OP_JZ, sum);
  emit_arg(a, OP_LOAD, 1); emit(a, OP_GLOAD); emit_arg(a, OP_STORE, 3);
  emit_arg(a, OP_LOAD, 1); emit_arg(a, OP_PUSH, 1); emit(a, OP_SUB); emit_arg(a, OP_STORE, 2);
  place_label(a, lw);
  emit_arg(a, OP_LOAD, 2); emit_arg(a, OP_PUSH, 0); emit(a, OP_LT); emit_ref(a, OP_JNZ, place);
  emit_arg(a, OP_LOAD, 2); emit(a, OP_GLOAD); emit_arg(a, OP_LOAD, 3); emit(a, OP_GT);
  emit_ref(a, OP_JZ, place);
  emit_arg(a, OP_LOAD, 2); emit_arg(a, OP_PUSH, 1); emit(a, OP_ADD); emit_arg(a, OP_LOAD, 2);
  emit(a, OP_GLOAD); emit(a, OP_GSTORE);
  emit_arg(a, OP_LOAD, 2); emit_arg(a, OP_PUSH, 1); emit(a, OP_SUB); emit_arg(a, OP_STORE, 2);
  emit_ref(a, OP_JMP, lw);
  place_label(a, place);
  emit_arg(a, OP_LOAD, 2); emit_arg(a, OP_PUSH, 1); emit(a, OP_ADD); emit_arg(a, OP_LOAD, 3);
  emit(a, OP_GSTORE);
  emit_arg(a, OP_INC, 1); emit_ref(a, OP_JMP, ls);
  place_label(a, sum);
  emit_arg(a, OP_PUSH, 0); emit_arg(a, OP_STORE, 1);
  place_label(a, lsum);
  emit_arg(a, OP_LOAD, 1); emit_arg(a, OP_LOAD, 0); emit(a, OP_LT); emit_ref(a, OP_JZ, end);
  emit_arg(a, OP_LOAD, 5); emit_arg(a, OP_PUSH, 31); emit(a, OP_MUL); emit_arg(a, OP_LOAD, 1);
  emit(a, OP_GLOAD); emit(a, OP_ADD); emit_arg(a, OP_PUSH, HASH_M); emit(a, OP_MOD);
  emit_arg(a, OP_STORE, 5);
  emit_arg(a, OP_INC, 1); emit_ref(a, OP_JMP, lsum);
  place_label(a, end);
  emit_arg(a, OP_LOAD, 5); emit(a, OP_RET);
}

/* ---- reference computations in C ------------------------------------------------------- */

int64_t ref_collatz(int64_t n)
{
  int64_t best = 0, start = 0;
  for (int64_t i = 1; i < n; i++) {
    int64_t x = i, steps = 0;
    while (x != 1) {
      x = (x % 2) ? 3 * x + 1 : x / 2;
      steps++;
    }
    if (steps > best) {
      best = steps;
      start = i;
    }
  }
  return start * 1024 + best;
}

int64_t ref_gcdsum(int64_t k)
{
  int64_t s = 0;
  for (int64_t i = 1; i <= k; i++)
    for (int64_t j = 1; j <= k; j++) {
      int64_t x = i, y = j;
      while (y) {
        int64_t t = x % y;
        x = y;
        y = t;
      }
      s += x;
    }
  return s;
}

static int cmp_i64(const void *p, const void *q)
{
  int64_t a = *(const int64_t *)p, b = *(const int64_t *)q;
  return (a > b) - (a < b);
}

int64_t ref_isort(int64_t n)
{
  int64_t *v = bench_xmalloc((size_t)n * sizeof *v);
  int64_t x = LCG_C, s = 0;
  for (int64_t i = 0; i < n; i++) {
    x = (x * LCG_A + LCG_C) % LCG_M;
    v[i] = x % 1000000;
  }
  qsort(v, (size_t)n, sizeof *v, cmp_i64);
  for (int64_t i = 0; i < n; i++)
    s = (s * 31 + v[i]) % HASH_M;
  free(v);
  return s;
}

/* ---- driver ---------------------------------------------------------------------------- */

struct program {
  const char *name;
  void (*gen)(struct assembler *, int);
  int64_t arg_small, arg_default;
  int64_t want_small, want_default; /* known results; 0 = check against ref */
  int64_t (*ref)(int64_t);
};

static const struct program programs[] = {
  {"fib", gen_fib, 22, 31, 17711, 1346269, NULL},
  {"sieve", gen_sieve, 50000, 2000000, 5133, 148933, NULL},
  {"collatz", gen_collatz, 10000, 400000, 0, 0, ref_collatz},
  {"gcdsum", gen_gcdsum, 100, 400, 0, 0, ref_gcdsum},
  {"isort", gen_isort, 600, 3000, 0, 0, ref_isort},
};

int main(int argc, char **argv)
{
  int small = bench_init(argc, argv, "interp");

  static struct assembler as;
  struct vm *vm = bench_xcalloc(1, sizeof *vm);
  vm->frames = bench_xcalloc(FRAMES_MAX, sizeof *vm->frames);
  vm->mem_size = small ? 50000 : 2000000;
  vm->mem = bench_xcalloc((size_t)vm->mem_size, sizeof *vm->mem);

  uint64_t digest = BENCH_FNV_BASIS;
  char why[200];
  const char *fail = NULL;
  size_t np = sizeof programs / sizeof programs[0];
  for (size_t p = 0; p < np && !fail; p++) {
    const struct program *pr = &programs[p];
    int64_t arg = small ? pr->arg_small : pr->arg_default;
    /* main: PUSH arg; CALL fn 1; HALT, then the function */
    memset(&as, 0, sizeof as);
    int fn = new_label(&as);
    emit_arg(&as, OP_PUSH, arg);
    emit_call(&as, fn, 1);
    emit(&as, OP_HALT);
    pr->gen(&as, fn);
    asm_finish(&as);
    vm->code = as.code;
    memset(vm->mem, 0, (size_t)vm->mem_size * sizeof *vm->mem);
    int64_t result = 0;
    enum vm_status rc = vm_run(vm, 0, &result);
    if (rc != VM_OK) {
      snprintf(why, sizeof why, "%s: vm error: %s", pr->name, vm_status_name[rc]);
      fail = why;
      break;
    }
    int64_t want = small ? pr->want_small : pr->want_default;
    if (pr->ref)
      want = pr->ref(arg);
    if (result != want) {
      snprintf(why, sizeof why, "%s(%lld) = %lld, expected %lld", pr->name, (long long)arg,
               (long long)result, (long long)want);
      fail = why;
      break;
    }
    digest = bench_fnv1a_u64(digest, (uint64_t)result);
  }
  digest = bench_fnv1a_u64(digest, vm->executed);
  free(vm->mem);
  free(vm->frames);
  free(vm);
  return bench_report(fail, digest);
}
/* SPDX-License-Identifier: GPL-3.0-or-later */
