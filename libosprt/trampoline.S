/* SPDX-License-Identifier: MIT */
/* trampoline.S - the runtime entry points as the generated code calls them
 * on x86-64: preserving every register (include/osp/abi.h).
 *
 * Why: a plain call to __osp_block_hook or __osp_path_end, even one in a
 * cold block that almost never runs, tells GCC that memory may change and
 * that the call-clobbered registers die.  In a loop with a check GCC then
 * reloads loop-invariant values from memory on every iteration and keeps
 * fewer values in registers, which costs more than the check itself
 * (doc/PERFORMANCE.md: sparse's inner loop was 13 instructions against 7
 * plain; with these entry points it is 10).  So the plugin emits, in the
 * cold block, an asm statement that names only what the runtime really
 * changes, the two countdowns, and calls one of these instead:
 *
 *     add $-128, %rsp                         # step over the red zone
 *     call *__osp_path_end_preserving@GOTPCREL(%rip)
 *     sub $-128, %rsp
 *
 * with the record in %rdi and the argument in %rsi, and the countdown the
 * runtime re-armed coming back in %eax, which the generated code stores
 * (so the asm has no memory operand at all: GCC's loop-invariant motion
 * gives up on a loop with any statement touching memory it cannot
 * analyse).  Each trampoline saves the other call-clobbered general
 * registers and %rbx, then the vector registers the calling function can
 * use (three flavours, below), aligns the stack and calls the C entry
 * point, then restores everything but the flags (the asm says "cc") and
 * %eax - as the dynamic linker's lazy-binding trampoline does, for the
 * same reason.  Each C entry point writes only its own countdown
 * (runtime.c), so the other one, which the generated code may keep in a
 * register across the asm, stays right.
 *
 * The block hook's trampolines first try to append the block to the sample
 * being taken, through the cursor the sampler leaves in thread-local
 * storage (sampler.h): every hook of a sample but its first does only that
 * (the last also returns the skip that follows the sample), and then the
 * trampoline touches three general registers and returns, without saving
 * the rest, the vector state, or entering C.  The shared path end's
 * (ABI 8) likewise take a path end seen in a sample from the cursor's
 * allowance (sampler.h, seen_left), touching %rax only.
 *
 * Other targets have no trampolines: the plugin emits plain calls there.
 */
#if defined (__x86_64__) && !defined (__ILP32__)

#include "collect/sampler.h"

	.data
	.p2align 2
/* Bytes to reserve for XSAVE (its size + 64 for the alignment), -1 for
   FXSAVE, 0 before the first call.  Racing first calls store the same
   value. */
osp_xsave_bytes:
	.long	0

	.text

/* %eax := osp_xsave_bytes, measured first if 0.  Clobbers %ebx, %ecx,
   %edx (saved by the caller); needs no stack alignment. */
	.p2align 4
	.type	osp_xsave_measure, @function
osp_xsave_measure:
	.cfi_startproc
	movl	osp_xsave_bytes(%rip), %eax
	testl	%eax, %eax
	jnz	2f
	movl	$1, %eax
	cpuid
	btl	$27, %ecx		/* OSXSAVE: XSAVE usable */
	jnc	1f
	movl	$0xd, %eax
	xorl	%ecx, %ecx
	cpuid				/* %ebx: XSAVE size for XCR0 */
	leal	64(%rbx), %eax
	movl	%eax, osp_xsave_bytes(%rip)
	ret
1:	movl	$-1, %eax
	movl	%eax, osp_xsave_bytes(%rip)
2:	ret
	.cfi_endproc
	.size	osp_xsave_measure, .-osp_xsave_measure

/* The vector state a trampoline saves, by the instruction set the calling
   function was compiled for (the plugin picks the flavour; a function
   keeps values only in the registers its instruction set has):
     SSE     %xmm0-15 (movaps; 256 bytes)
     AVX     %ymm0-15 (vmovdqa; 512 bytes)
     XSAVE   everything XCR0 enables (AVX-512's %zmm0-31 and %k0-7
             included), or FXSAVE on a CPU without XSAVE.
   XSAVE/XRSTOR cost about 250 ns here, the SSE flavour a few, which
   matters because in a subpath sample every block's hook fires.  The x87
   stack is left alone: neither the runtime nor the C library functions it
   calls use x87 instructions.  Each macro runs with %rbp the frame, the
   general registers saved, and must leave %rsp 16-byte aligned. */
#define SAVE_SSE						\
	subq	$256, %rsp;					\
	andq	$-16, %rsp;					\
	movaps	%xmm0, 0(%rsp);					\
	movaps	%xmm1, 16(%rsp);				\
	movaps	%xmm2, 32(%rsp);				\
	movaps	%xmm3, 48(%rsp);				\
	movaps	%xmm4, 64(%rsp);				\
	movaps	%xmm5, 80(%rsp);				\
	movaps	%xmm6, 96(%rsp);				\
	movaps	%xmm7, 112(%rsp);				\
	movaps	%xmm8, 128(%rsp);				\
	movaps	%xmm9, 144(%rsp);				\
	movaps	%xmm10, 160(%rsp);				\
	movaps	%xmm11, 176(%rsp);				\
	movaps	%xmm12, 192(%rsp);				\
	movaps	%xmm13, 208(%rsp);				\
	movaps	%xmm14, 224(%rsp);				\
	movaps	%xmm15, 240(%rsp)
#define RESTORE_SSE						\
	movaps	0(%rsp), %xmm0;					\
	movaps	16(%rsp), %xmm1;				\
	movaps	32(%rsp), %xmm2;				\
	movaps	48(%rsp), %xmm3;				\
	movaps	64(%rsp), %xmm4;				\
	movaps	80(%rsp), %xmm5;				\
	movaps	96(%rsp), %xmm6;				\
	movaps	112(%rsp), %xmm7;				\
	movaps	128(%rsp), %xmm8;				\
	movaps	144(%rsp), %xmm9;				\
	movaps	160(%rsp), %xmm10;				\
	movaps	176(%rsp), %xmm11;				\
	movaps	192(%rsp), %xmm12;				\
	movaps	208(%rsp), %xmm13;				\
	movaps	224(%rsp), %xmm14;				\
	movaps	240(%rsp), %xmm15
#define SAVE_AVX						\
	subq	$512, %rsp;					\
	andq	$-32, %rsp;					\
	vmovdqa	%ymm0, 0(%rsp);					\
	vmovdqa	%ymm1, 32(%rsp);				\
	vmovdqa	%ymm2, 64(%rsp);				\
	vmovdqa	%ymm3, 96(%rsp);				\
	vmovdqa	%ymm4, 128(%rsp);				\
	vmovdqa	%ymm5, 160(%rsp);				\
	vmovdqa	%ymm6, 192(%rsp);				\
	vmovdqa	%ymm7, 224(%rsp);				\
	vmovdqa	%ymm8, 256(%rsp);				\
	vmovdqa	%ymm9, 288(%rsp);				\
	vmovdqa	%ymm10, 320(%rsp);				\
	vmovdqa	%ymm11, 352(%rsp);				\
	vmovdqa	%ymm12, 384(%rsp);				\
	vmovdqa	%ymm13, 416(%rsp);				\
	vmovdqa	%ymm14, 448(%rsp);				\
	vmovdqa	%ymm15, 480(%rsp)
#define RESTORE_AVX						\
	vmovdqa	0(%rsp), %ymm0;					\
	vmovdqa	32(%rsp), %ymm1;				\
	vmovdqa	64(%rsp), %ymm2;				\
	vmovdqa	96(%rsp), %ymm3;				\
	vmovdqa	128(%rsp), %ymm4;				\
	vmovdqa	160(%rsp), %ymm5;				\
	vmovdqa	192(%rsp), %ymm6;				\
	vmovdqa	224(%rsp), %ymm7;				\
	vmovdqa	256(%rsp), %ymm8;				\
	vmovdqa	288(%rsp), %ymm9;				\
	vmovdqa	320(%rsp), %ymm10;				\
	vmovdqa	352(%rsp), %ymm11;				\
	vmovdqa	384(%rsp), %ymm12;				\
	vmovdqa	416(%rsp), %ymm13;				\
	vmovdqa	448(%rsp), %ymm14;				\
	vmovdqa	480(%rsp), %ymm15
/* XSAVE needs %eax:%edx as the component mask (and measuring its size
   runs CPUID), so the call and the restore are part of the macro, and the
   third and fourth arguments (%rdx, %rcx: __osp_path_ends) are reloaded
   from where PRESERVING pushed them. */
#define RELOAD_ARGS						\
	movq	-24(%rbp), %rdx;				\
	movq	-16(%rbp), %rcx
/* XSAVE needs %eax:%edx as the component mask, so the call and the
   restore are part of the macro. */
#define CALL_XSAVE(target)					\
	call	osp_xsave_measure;				\
	cmpl	$-1, %eax;					\
	je	1f;						\
	subq	%rax, %rsp;					\
	andq	$-64, %rsp;					\
	xorl	%eax, %eax;	/* the XSAVE header must be zero */ \
	movq	%rax, 512(%rsp);				\
	movq	%rax, 520(%rsp);				\
	movq	%rax, 528(%rsp);				\
	movq	%rax, 536(%rsp);				\
	movq	%rax, 544(%rsp);				\
	movq	%rax, 552(%rsp);				\
	movq	%rax, 560(%rsp);				\
	movq	%rax, 568(%rsp);				\
	movl	$-1, %eax;					\
	movl	$-1, %edx;					\
	xsave	(%rsp);						\
	RELOAD_ARGS;						\
	call	*target@GOTPCREL(%rip);				\
	movl	$-1, %eax;					\
	movl	$-1, %edx;					\
	xrstor	(%rsp);						\
	jmp	2f;						\
1:	subq	$512, %rsp;					\
	andq	$-16, %rsp;					\
	fxsave	(%rsp);						\
	RELOAD_ARGS;						\
	call	*target@GOTPCREL(%rip);				\
	fxrstor	(%rsp);						\
2:
#define CALL_SSE(target)					\
	SAVE_SSE;						\
	call	*target@GOTPCREL(%rip);				\
	RESTORE_SSE
#define CALL_AVX(target)					\
	SAVE_AVX;						\
	call	*target@GOTPCREL(%rip);				\
	RESTORE_AVX

/* The block hook in a sample, past its first block: osp_sample_append
   (sampler.h) with %rdi the record and %esi the block, in %rax, %rcx and
   %rdx only; or, with no sample open, a block of a hold's skip
   (held_left), or the block whose start the sampler thinned away ahead
   (again: it arms the skip that follows).  Returns the countdown when it
   appended or passed the block (1 while the sample goes on, after its
   last block the skip the cursor holds);
   else falls through to the full trampoline, every register as it was but
   %rax and the flags, which the asm gives up anyway.  %rcx holds
   the thread-pointer offset of the cursor, then of its cache entry minus
   OSP_CURSOR_FNS. */
#define APPEND_BLOCK(off)					\
	movq	osp_in_runtime@gottpoff(%rip), %rax;		\
	cmpq	$0, %fs:(%rax);					\
	jne	8f;						\
	movq	%rsp, %fs:(%rax); /* osp_stack_mark () */	\
	.if off; addq $off, %fs:(%rax); .endif;			\
	pushq	%rcx;						\
	.cfi_adjust_cfa_offset 8;				\
	pushq	%rdx;						\
	.cfi_adjust_cfa_offset 8;				\
	movq	osp_sample_cursor@gottpoff(%rip), %rcx;		\
	cmpl	$0, %fs:OSP_CURSOR_LEFT(%rcx);			\
	je	5f;						\
	movq	%rdi, %rdx;					\
	shrq	$OSP_RECORD_SHIFT, %rdx;			\
	andl	$OSP_CURSOR_WAYS - 1, %edx;			\
	shlq	$OSP_CURSOR_FN_SHIFT, %rdx;			\
	addq	%rdx, %rcx;					\
	cmpq	%rdi, %fs:OSP_CURSOR_FNS+OSP_CURSOR_FN_REC(%rcx); \
	jne	7f;						\
	movl	%fs:OSP_CURSOR_FNS+OSP_CURSOR_FN_ID(%rcx), %edx; \
	cmpl	%edx, OSP_RECORD_ID(%rdi);			\
	jne	7f;						\
	cmpl	%esi, %fs:OSP_CURSOR_FNS+OSP_CURSOR_FN_NBLOCKS(%rcx); \
	jbe	7f;						\
	movl	%fs:OSP_CURSOR_FNS+OSP_CURSOR_FN_BASE(%rcx), %edx; \
	addl	%esi, %edx;					\
	movq	osp_sample_cursor@gottpoff(%rip), %rcx;		\
	movq	%fs:OSP_CURSOR_NEXT(%rcx), %rax;		\
	movl	%edx, (%rax);					\
	addq	$4, %fs:OSP_CURSOR_NEXT(%rcx);			\
	movl	$1, %eax;					\
	subl	$1, %fs:OSP_CURSOR_LEFT(%rcx);			\
	jne	6f;						\
	movl	%fs:OSP_CURSOR_SKIP(%rcx), %eax; /* the last */	\
6:	movq	osp_in_runtime@gottpoff(%rip), %rcx;		\
	movq	$0, %fs:(%rcx);					\
	popq	%rdx;						\
	.cfi_adjust_cfa_offset -8;				\
	popq	%rcx;						\
	.cfi_adjust_cfa_offset -8;				\
	ret;							\
	.cfi_adjust_cfa_offset 16;				\
5:	cmpl	$0, %fs:OSP_CURSOR_HELD(%rcx); /* a hold's skip */ \
	je	9f;						\
	subl	$1, %fs:OSP_CURSOR_HELD(%rcx);			\
	movl	$1, %eax;					\
	jmp	6b;						\
9:	movl	%fs:OSP_CURSOR_AGAIN(%rcx), %edx; /* thinned */	\
	testl	%edx, %edx;	/* (%rax: the flag's offset, for 7) */ \
	je	7f;						\
	movl	$0, %fs:OSP_CURSOR_AGAIN(%rcx);			\
	movl	%edx, %eax;					\
	jmp	6b;						\
7:	popq	%rdx;						\
	.cfi_adjust_cfa_offset -8;				\
	popq	%rcx;						\
	.cfi_adjust_cfa_offset -8;				\
	movq	$0, %fs:(%rax);					\
8:
#define NO_APPEND(off)

/* A shared path end in a sample (sampler.h: seen_left): with the cursor
   open (or seen_any: mode=blocks, subpaths-exact) and an allowance left,
   take one from it and return 1 (the sample's __osp_skip), in %rax only, the re-entrancy flag set
   meanwhile as in APPEND_BLOCK (a signal handler's path end in between
   goes to the runtime, which counts it lost); else fall through to the
   full trampoline. */
#define SEEN_END(off)						\
	movq	osp_in_runtime@gottpoff(%rip), %rax;		\
	cmpq	$0, %fs:(%rax);					\
	jne	8f;						\
	movq	%rsp, %fs:(%rax); /* osp_stack_mark () */	\
	.if off; addq $off, %fs:(%rax); .endif;			\
	movq	osp_sample_cursor@gottpoff(%rip), %rax;		\
	cmpl	$0, %fs:OSP_CURSOR_LEFT(%rax);			\
	jne	4f;						\
	cmpl	$0, %fs:OSP_CURSOR_SEEN_ANY(%rax);		\
	je	7f;						\
4:	cmpl	$0, %fs:OSP_CURSOR_SEEN(%rax);			\
	je	7f;						\
	subl	$1, %fs:OSP_CURSOR_SEEN(%rax);			\
	movq	osp_in_runtime@gottpoff(%rip), %rax;		\
	movq	$0, %fs:(%rax);					\
	movl	$1, %eax;					\
	ret;							\
7:	movq	osp_in_runtime@gottpoff(%rip), %rax;		\
	movq	$0, %fs:(%rax);					\
8:

/* One trampoline: NAME tries FAST (one of the two above), saves the
   call-clobbered general registers and %rbx, then the vector state (CALL:
   one of the above), calls TARGET (%rdi, %rsi, %rdx, %rcx as given, and
   in %r8 the stack mark, base.h: %rsp at our entry plus OFF, as
   APPEND_BLOCK's), restores everything and returns TLS, the countdown
   TARGET re-armed, in %eax (the asm's only output: the generated code
   stores it back).  OFF is 0 but for FOLDED's inner trampolines. */
#define PRESERVING(name, target, tls, FAST, CALL, off)		\
	.type	name, @function;				\
	.p2align 4;						\
name:								\
	.cfi_startproc;						\
	.byte	0xf3, 0x0f, 0x1e, 0xfa;	/* endbr64 */		\
	FAST (off);						\
	pushq	%rbp;						\
	.cfi_def_cfa_offset 16;					\
	.cfi_offset %rbp, -16;					\
	movq	%rsp, %rbp;					\
	.cfi_def_cfa_register %rbp;				\
	pushq	%rbx;						\
	pushq	%rcx;						\
	pushq	%rdx;						\
	pushq	%rsi;						\
	pushq	%rdi;						\
	pushq	%r8;						\
	pushq	%r9;						\
	pushq	%r10;						\
	pushq	%r11;						\
	leaq	8+off(%rbp), %r8; /* %rsp at our entry, + OFF */	\
	CALL (target);						\
	leaq	-72(%rbp), %rsp;				\
	popq	%r11;						\
	popq	%r10;						\
	popq	%r9;						\
	popq	%r8;						\
	popq	%rdi;						\
	popq	%rsi;						\
	popq	%rdx;						\
	popq	%rcx;						\
	popq	%rbx;						\
	movq	tls@gottpoff(%rip), %rax;			\
	movl	%fs:(%rax), %eax;				\
	popq	%rbp;						\
	.cfi_def_cfa %rsp, 8;					\
	ret;							\
	.cfi_endproc;						\
	.size	name, .-name

/* Each entry point NAME in the three flavours: NAME_preserving (SSE),
   NAME_preserving_avx and NAME_preserving_xsave, calling TARGET and
   returning TLS.  The block hook's have tried the cursor already, so they
   call the runtime past it. */
#define FLAVOURS(name, target, tls, FAST)				\
	.globl	name##_preserving, name##_preserving_avx;		\
	.globl	name##_preserving_xsave;				\
	PRESERVING (name##_preserving, target, tls, FAST, CALL_SSE, 0); \
	PRESERVING (name##_preserving_avx, target, tls, FAST, CALL_AVX, 0); \
	PRESERVING (name##_preserving_xsave, target, tls, FAST, CALL_XSAVE, 0)

FLAVOURS (__osp_block_hook, osp_block_hook_runtime, __osp_skip, APPEND_BLOCK)
FLAVOURS (__osp_path_end, osp_path_end_tramp, __osp_path_countdown, NO_APPEND)
FLAVOURS (__osp_path_end_shared, osp_path_end_shared_tramp, __osp_skip,
	  SEEN_END)
FLAVOURS (__osp_path_ends, osp_path_ends_tramp, __osp_path_countdown,
	  NO_APPEND)
FLAVOURS (__osp_block_hooks, osp_block_hooks_tramp, __osp_skip, NO_APPEND)

/* A folded hook (plugin/fold.cc) keeps its countdown in whichever
   register GCC chose, %R below, and has no cold block of its own: its
   call is out of line, after the function (.subsection 1), where no
   operand can be loaded for it, so it passes everything in memory:
       3: .long record - 3b        # the operands, before the call
          .long argument
       2: add $-128, %rsp          # step over the red zone
          call *__osp_block_hook_folded[_avx|_xsave]_R@GOTPCREL(%rip)
          jmp 1b                   # back after the folded test
   There is one entry point per register and vector flavour: it puts the
   re-armed countdown in %R itself and returns with `ret $128', so that
   the stub has no slot to pop and no stack to restore (18 bytes to the
   return address; 9 fewer a hook than a stub that pops a slot).  The
   stub's call names the entry by the register through an assembler macro
   the plugin defines once in each unit (.irp over the names, .ifc against
   the asm operand).  The add and the call have fixed lengths (the
   assembler checks them), so the operands are FOLDED_OPERANDS bytes
   before the return address; the call returns where it was made from,
   which keeps the processor's return predictions right (returning past
   operands placed after the call would miss every prediction).

   FOLDED_HEAD reads the record and the argument and calls INNER, the
   trampoline of the plain hook, with its stack mark moved by
   FOLDED_OFFSET up to where a plain hook's would be (the %rsp of our
   entry: 24 for our pushes and 8 for our call of INNER), so that
   osp_runtime_enter judges both alike.  Every register is preserved but
   the flags and %R. */
#define FOLDED_OFFSET 32
#define FOLDED_OPERANDS 18
#define FOLDED_HEAD(name, inner, operands)				\
	.type	name, @function;				\
	.p2align 4;						\
name:								\
	.cfi_startproc;						\
	.byte	0xf3, 0x0f, 0x1e, 0xfa;	/* endbr64 */		\
	pushq	%rdi;						\
	.cfi_adjust_cfa_offset 8;				\
	pushq	%rsi;						\
	.cfi_adjust_cfa_offset 8;				\
	pushq	%rax;						\
	.cfi_adjust_cfa_offset 8;				\
	movq	24(%rsp), %rax;	/* the return address */	\
	subq	$operands, %rax;	/* the operands */	\
	movslq	(%rax), %rdi;					\
	addq	%rax, %rdi;					\
	movl	4(%rax), %esi;					\
	call	inner;						\
	movl	%eax, %eax
/* The countdown into R, the rest as it was; R may be %rax, %rsi or %rdi,
   whose restores it then overrides. */
#define FOLDED_REG(name, inner, R)					\
	.globl	name;						\
	FOLDED_HEAD (name, inner, FOLDED_OPERANDS);		\
	movq	16(%rsp), %rdi;					\
	movq	8(%rsp), %rsi;					\
	movq	%rax, 8(%rsp);					\
	popq	%rax;						\
	.cfi_adjust_cfa_offset -8;				\
	popq	%R;						\
	.cfi_adjust_cfa_offset -8;				\
	leaq	8(%rsp), %rsp;					\
	.cfi_adjust_cfa_offset -8;				\
	ret	$128;						\
	.cfi_endproc;						\
	.size	name, .-name
#define FOLDED_REGS(prefix, inner)					\
	FOLDED_REG (prefix##_rax, inner, rax);			\
	FOLDED_REG (prefix##_rbx, inner, rbx);			\
	FOLDED_REG (prefix##_rcx, inner, rcx);			\
	FOLDED_REG (prefix##_rdx, inner, rdx);			\
	FOLDED_REG (prefix##_rsi, inner, rsi);			\
	FOLDED_REG (prefix##_rdi, inner, rdi);			\
	FOLDED_REG (prefix##_rbp, inner, rbp);			\
	FOLDED_REG (prefix##_r8, inner, r8);			\
	FOLDED_REG (prefix##_r9, inner, r9);			\
	FOLDED_REG (prefix##_r10, inner, r10);			\
	FOLDED_REG (prefix##_r11, inner, r11);			\
	FOLDED_REG (prefix##_r12, inner, r12);			\
	FOLDED_REG (prefix##_r13, inner, r13);			\
	FOLDED_REG (prefix##_r14, inner, r14);			\
	FOLDED_REG (prefix##_r15, inner, r15)

/* The entry point of the first folded stubs (ABI 9 objects built before
   the per-register ones), kept so that such objects still load:
       2: lea -136(%rsp), %rsp     # the red zone, and a slot
          call *__osp_block_hook_folded[_avx|_xsave]@GOTPCREL(%rip)
          pop %R                   # the re-armed countdown, from the slot
          sub $-128, %rsp
          jmp 1b
   Operands 22 bytes before the return address, the countdown left in
   the slot. */
#define FOLDED_SLOT(name, inner)					\
	.globl	name;						\
	FOLDED_HEAD (name, inner, 22);				\
	movq	%rax, 32(%rsp);	/* into the slot */		\
	popq	%rax;						\
	.cfi_adjust_cfa_offset -8;				\
	popq	%rsi;						\
	.cfi_adjust_cfa_offset -8;				\
	popq	%rdi;						\
	.cfi_adjust_cfa_offset -8;				\
	ret;							\
	.cfi_endproc;						\
	.size	name, .-name

PRESERVING (osp_block_hook_folded_sse, osp_block_hook_runtime, __osp_skip,
	    APPEND_BLOCK, CALL_SSE, FOLDED_OFFSET)
PRESERVING (osp_block_hook_folded_avx, osp_block_hook_runtime, __osp_skip,
	    APPEND_BLOCK, CALL_AVX, FOLDED_OFFSET)
PRESERVING (osp_block_hook_folded_xsave, osp_block_hook_runtime, __osp_skip,
	    APPEND_BLOCK, CALL_XSAVE, FOLDED_OFFSET)
FOLDED_REGS (__osp_block_hook_folded, osp_block_hook_folded_sse)
FOLDED_REGS (__osp_block_hook_folded_avx, osp_block_hook_folded_avx)
FOLDED_REGS (__osp_block_hook_folded_xsave, osp_block_hook_folded_xsave)
FOLDED_SLOT (__osp_block_hook_folded, osp_block_hook_folded_sse)
FOLDED_SLOT (__osp_block_hook_folded_avx, osp_block_hook_folded_avx)
FOLDED_SLOT (__osp_block_hook_folded_xsave, osp_block_hook_folded_xsave)

#endif

	.section .note.GNU-stack, "", @progbits
