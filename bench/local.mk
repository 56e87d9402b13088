# SPDX-License-Identifier: GPL-3.0-or-later
## bench/local.mk - included by the top-level Makefile.am (see doc/CONTRACTS.md).
##
## `make bench' runs bench/run.sh on this build tree: the 12 self-checking programs of bench/
## built plain, with gcov and with the plugin, run under the runtime's configurations; wall time,
## instructions (callgrind), peak memory, compile time, code size and accuracy, as markdown on
## stdout (progress on stderr; work files in bench-work/; the recipe is silent so that the
## redirected output is pure markdown).  Takes long (see bench/run.sh):
##     make bench > results.md
## The knobs (BENCH_RUNS, BENCH_PROGS, BENCH_CONFIGS, ...) are read from the environment.

EXTRA_DIST += bench/compress.c bench/fft.c bench/heapsort.c bench/interp.c bench/lexgen.c \
	bench/lu.c bench/moldyn.c bench/montecarlo.c bench/raytrace.c bench/sor.c bench/sparse.c \
	bench/threads.c bench/bench.h bench/run.sh bench/configs.sh bench/real.sh bench/pubcost.c \
	bench/real/bench.lua

.PHONY: bench
bench: plugin/osp.la libosprt/libosprt.la tests/env.sh
	@$(SHELL) $(srcdir)/bench/run.sh $(abs_top_builddir)
