/* SPDX-License-Identifier: MIT */
/* t_folded.c - the folded hooks' entry points (libosprt/trampoline.S,
 * FOLDED_REG): one per register and vector flavour, each called from a
 * stub laid out as plugin/fold.cc lays it out, with every register but
 * %rsp in turn holding the countdown.  Each call must count its block
 * (mode=blocks: every block calls in), put the re-armed countdown
 * (__osp_skip) in its register and keep %rax, %rsi and %rdi, which the
 * entry point uses, as they were.  The generated code of real programs
 * only ever shows GCC's favourite registers (tests/fold.sh); this covers
 * the others.  Black box: shared library and a tsv report; x86-64 only. */
#include "testutil.h"

#if defined (__x86_64__) && !defined (__ILP32__)

static struct osp_fn_record rec __attribute__ ((aligned (8)));
static uint32_t cfg[6 * 16];
static uint64_t out_r, out_rax, out_rsi, out_rdi;

#define IN_R 0x4444444444444444ull
#define IN_RAX 0x1111111111111111ull
#define IN_RSI 0x2222222222222222ull
#define IN_RDI 0x3333333333333333ull

/* Block B through the entry point of register R, flavour FL ("", "_avx",
   "_xsave"): the registers loaded, the stub entered as a folded hook's
   je enters it (here by a call, whose return the stub's jmp back stands
   for), and what they hold after it stored in out_*.  The red zone of
   the function around the asm is stepped over first, as the stub's add
   steps over the generated code's. */
#define PROBE(R, FL, B)                                                      \
  static void probe_##R##FL (void)                                           \
  {                                                                          \
    __asm__ volatile (                                                       \
      "add $-128, %%rsp\n\t"                                                 \
      "push %%rax\n\tpush %%rsi\n\tpush %%rdi\n\tpush %%" #R "\n\t"          \
      "movabs $0x1111111111111111, %%rax\n\t"                                \
      "movabs $0x2222222222222222, %%rsi\n\t"                                \
      "movabs $0x3333333333333333, %%rdi\n\t"                                \
      "movabs $0x4444444444444444, %%" #R "\n\t"                             \
      "call 2f\n\t"                                                          \
      "jmp 5f\n"                                                             \
      "3:\t.long %c[rec] - 3b\n\t"                                           \
      ".long " #B "\n"                                                       \
      "2:\tadd $-128, %%rsp\n\t"                                             \
      "call *__osp_block_hook_folded" #FL "_" #R "@GOTPCREL(%%rip)\n"        \
      "4:\t.if 4b - 3b - 18\n\t"                                             \
      ".error \"the stub is not 18 bytes\"\n\t"                              \
      ".endif\n\t"                                                           \
      "ret\n"                                                                \
      "5:\tmov %%rax, %[rax]\n\t"                                            \
      "mov %%rsi, %[rsi]\n\t"                                                \
      "mov %%rdi, %[rdi]\n\t"                                                \
      "mov %%" #R ", %[r]\n\t"                                               \
      "pop %%" #R "\n\tpop %%rdi\n\tpop %%rsi\n\tpop %%rax\n\t"              \
      "sub $-128, %%rsp"                                                     \
      : [r] "=m" (out_r), [rax] "=m" (out_rax), [rsi] "=m" (out_rsi),        \
        [rdi] "=m" (out_rdi)                                                 \
      : [rec] "i" (&rec)                                                     \
      : "cc", "memory");                                                     \
  }

/* The registers, with their blocks: B is the register's index. */
#define REGISTERS(X, FL)                                                     \
  X (rax, FL, 0) X (rbx, FL, 1) X (rcx, FL, 2) X (rdx, FL, 3)                \
  X (rsi, FL, 4) X (rdi, FL, 5) X (rbp, FL, 6) X (r8, FL, 7)                 \
  X (r9, FL, 8) X (r10, FL, 9) X (r11, FL, 10) X (r12, FL, 11)               \
  X (r13, FL, 12) X (r14, FL, 13) X (r15, FL, 14)
#define NREGS 15

REGISTERS (PROBE, )
REGISTERS (PROBE, _avx)
REGISTERS (PROBE, _xsave)

struct probe
{
  const char *name;
  void (*fn) (void);
  int block;
};
#define ENTRY(R, FL, B) { #R #FL, probe_##R##FL, B },
static const struct probe sse[] = { REGISTERS (ENTRY, ) };
static const struct probe avx[] = { REGISTERS (ENTRY, _avx) };
static const struct probe xsave[] = { REGISTERS (ENTRY, _xsave) };

/* Each probe of TABLE once: what the registers hold after it. */
static void
run_table (const struct probe *table)
{
  for (int i = 0; i < NREGS; i++)
    {
      const struct probe *p = &table[i];
      __osp_skip = 1; /* the countdown ran out: the stub is entered */
      p->fn ();
      uint32_t armed = __osp_skip;
      int is = p->block; /* rax 0, rsi 4, rdi 5: the register itself */
      if (out_r != armed || out_r == IN_R)
        printf ("%s: the register holds %#llx, the countdown is %u\n",
                p->name, (unsigned long long) out_r, armed);
      if ((is != 0 && out_rax != IN_RAX) || (is != 4 && out_rsi != IN_RSI)
          || (is != 5 && out_rdi != IN_RDI))
        printf ("%s: %%rax %#llx, %%rsi %#llx, %%rdi %#llx changed\n",
                p->name, (unsigned long long) out_rax,
                (unsigned long long) out_rsi, (unsigned long long) out_rdi);
    }
}

static int
scenario_work (void)
{
  osp_test_chain (&rec, cfg, "regs", "regs.c", 16, 10);
  __osp_register_module (OSP_ABI_VERSION, &rec, &rec + 1);
  run_table (sse);
  run_table (xsave);
  if (__builtin_cpu_supports ("avx"))
    run_table (avx);
  printf ("done %d\n", __builtin_cpu_supports ("avx") ? 3 : 2);
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "work") == 0)
    return scenario_work ();

  char *o, *r;
  CHECK_EQ (osp_test_run_blocks (NULL, &o, &r), 0);
  CHECK (o != NULL && r != NULL);
  int flavours = 0;
  if (o && r)
    {
      /* Nothing but the last line: a line before it is a register that
         came back wrong. */
      CHECK (sscanf (o, "done %d\n", &flavours) == 1);
      if (flavours == 0)
        fputs (o, stderr);
      for (int b = 0; b < NREGS; b++)
        CHECK_EQ (osp_test_block_count (r, 1, b), flavours);
      CHECK_EQ (osp_test_block_count (r, 1, NREGS), -1);
    }
  free (o);
  free (r);
  return osp_test_done ("t_folded");
}

#else

int
main (void)
{
  puts ("t_folded: no folded hooks on this target");
  return 77;
}

#endif
