# SPDX-License-Identifier: MIT
## libosprt/local.mk - the runtime linked into instrumented programs (C11, pthreads).
## Included by the top-level Makefile.am (see doc/CONTRACTS.md): only appends with `+='.
##
## The runtime is plain C: it is never compiled with the plugin, and only the ABI symbols of
## include/osp/abi.h and osp_report() of include/osp/osp.h are exported (-fvisibility=hidden,
## OSP_EXPORT on those entry points).  libm: hotlist.c's binomial sampler (sampler.c and
## estimate.c need none: base/mathx.c has osp_ln/osp_sqrt); a static libosprt.a then needs -lm too.
## The sources are listed by layer, bottom up (doc/HACKING.md; tests/layers.sh checks the
## include direction).  The view format library under them, libosprt/format/ (format/local.mk),
## is linked in whole; ospview and the tests link it too.

OSPRT_SOURCES = \
	libosprt/osprt.h \
	libosprt/base/base.h \
	libosprt/base/warn.c \
	libosprt/base/lock.c \
	libosprt/base/arena.c \
	libosprt/base/random.c \
	libosprt/base/mathx.c \
	libosprt/model/model.h \
	libosprt/model/hlenums.h \
	libosprt/model/options.c \
	libosprt/model/registry.c \
	libosprt/model/paths.c \
	libosprt/collect/collect.h \
	libosprt/collect/thread.c \
	libosprt/collect/lifecycle.c \
	libosprt/collect/blockcount.c \
	libosprt/collect/hotlist.h \
	libosprt/collect/hotlist.c \
	libosprt/collect/sampler.h \
	libosprt/collect/sampler.c \
	libosprt/collect/subexact.c \
	libosprt/collect/estimate.c \
	libosprt/collect/shares.c \
	libosprt/collect/pathsample.c \
	libosprt/collect/pathprof.c \
	libosprt/collect/forest.h \
	libosprt/collect/forest.c \
	libosprt/collect/pathforest.c \
	libosprt/profile/profile.h \
	libosprt/profile/profile.c \
	libosprt/output/output.h \
	libosprt/output/report.c \
	libosprt/output/report-blocks.c \
	libosprt/output/report-subpaths.c \
	libosprt/output/report-paths.c \
	libosprt/output/report-forest.c \
	libosprt/output/report-work.c \
	libosprt/output/text.c \
	libosprt/output/viewwrite.c \
	libosprt/output/viewcache.h \
	libosprt/output/viewcache.c \
	libosprt/output/identity.c \
	libosprt/output/publish.c \
	libosprt/output/snapshot.c \
	libosprt/output/online.c \
	libosprt/runtime.h \
	libosprt/runtime.c \
	libosprt/trampoline.S
OSPRT_CPPFLAGS = -I$(top_srcdir)/include -I$(top_srcdir)/libosprt
OSPRT_CFLAGS = -std=c11 $(PTHREAD_CFLAGS) -fvisibility=hidden \
	-Wall -Wextra -Wshadow -Wstrict-prototypes

lib_LTLIBRARIES += libosprt/libosprt.la
libosprt_libosprt_la_SOURCES = $(OSPRT_SOURCES)
libosprt_libosprt_la_CPPFLAGS = $(OSPRT_CPPFLAGS)
libosprt_libosprt_la_CFLAGS = $(OSPRT_CFLAGS)
libosprt_libosprt_la_LIBADD = libosprt/format/libospformat.la $(PTHREAD_LIBS) -lm
libosprt_libosprt_la_LDFLAGS = -version-info 0:0:0 \
	-Wl,--version-script=$(top_srcdir)/libosprt/osprt.map
libosprt_libosprt_la_DEPENDENCIES = libosprt/format/libospformat.la libosprt/osprt.map
EXTRA_DIST += libosprt/osprt.map

## --- unit tests --------------------------------------------------------------------------------
## White-box tests link the runtime's objects statically (a check-only convenience library, so
## they can call internal functions); t_threads and t_fork link the real shared library and use
## only the ABI and the tsv report.  bench_counters.c is a measurement, built by hand (see it).
check_LTLIBRARIES += libosprt/tests/libosprt-check.la
libosprt_tests_libosprt_check_la_SOURCES = $(OSPRT_SOURCES)
libosprt_tests_libosprt_check_la_CPPFLAGS = $(OSPRT_CPPFLAGS)
libosprt_tests_libosprt_check_la_CFLAGS = $(OSPRT_CFLAGS)
libosprt_tests_libosprt_check_la_LIBADD = libosprt/format/libospformat-read.la \
	libosprt/format/libospformat.la -lm

OSPRT_WHITEBOX_TESTS = libosprt/tests/t_options libosprt/tests/t_registry libosprt/tests/t_report \
	libosprt/tests/t_sampler libosprt/tests/t_subexact libosprt/tests/t_hotlist \
	libosprt/tests/t_paths libosprt/tests/t_forest libosprt/tests/t_publish \
	libosprt/tests/t_shared libosprt/tests/t_sha256
OSPRT_BLACKBOX_TESTS = libosprt/tests/t_threads libosprt/tests/t_fork libosprt/tests/t_online \
	libosprt/tests/t_pathrun libosprt/tests/t_folded
check_PROGRAMS += $(OSPRT_WHITEBOX_TESTS) $(OSPRT_BLACKBOX_TESTS)
TESTS += $(OSPRT_WHITEBOX_TESTS) $(OSPRT_BLACKBOX_TESTS)
EXTRA_DIST += libosprt/tests/bench_counters.c

## The unit tests share the runtime's flags (no other C program in this tree is built by
## Automake); white-box tests link the check library, black-box ones the real shared library.
AM_CPPFLAGS = $(OSPRT_CPPFLAGS)
AM_CFLAGS = $(OSPRT_CFLAGS)
OSPRT_WHITEBOX_LDADD = libosprt/tests/libosprt-check.la $(PTHREAD_LIBS) -lm
OSPRT_BLACKBOX_LDADD = libosprt/libosprt.la $(PTHREAD_LIBS)

libosprt_tests_t_options_SOURCES = libosprt/tests/t_options.c libosprt/tests/testutil.h
libosprt_tests_t_options_LDADD = $(OSPRT_WHITEBOX_LDADD)
libosprt_tests_t_registry_SOURCES = libosprt/tests/t_registry.c libosprt/tests/testutil.h
libosprt_tests_t_registry_LDADD = $(OSPRT_WHITEBOX_LDADD)
libosprt_tests_t_report_SOURCES = libosprt/tests/t_report.c libosprt/tests/testutil.h
libosprt_tests_t_report_LDADD = $(OSPRT_WHITEBOX_LDADD)
libosprt_tests_t_sampler_SOURCES = libosprt/tests/t_sampler.c libosprt/tests/testutil.h
libosprt_tests_t_sampler_LDADD = $(OSPRT_WHITEBOX_LDADD)
libosprt_tests_t_subexact_SOURCES = libosprt/tests/t_subexact.c libosprt/tests/testutil.h
libosprt_tests_t_subexact_LDADD = $(OSPRT_WHITEBOX_LDADD)
## t_hotlist also compiles a second copy of hotlist.c (#include, HL_TEST_WEAK_HASH, renamed
## entry points); `t_hotlist bench' is the hot-list micro-benchmark (not run by make check).
libosprt_tests_t_hotlist_SOURCES = libosprt/tests/t_hotlist.c libosprt/tests/testutil.h
libosprt_tests_t_hotlist_LDADD = $(OSPRT_WHITEBOX_LDADD)
## t_paths: Ball-Larus decoding, verify_paths, record checks, the path table; pathgraphs.h
## builds the test records with a reference numbering of its own (shared with t_pathrun).
libosprt_tests_t_paths_SOURCES = libosprt/tests/t_paths.c libosprt/tests/pathgraphs.h \
	libosprt/tests/testutil.h
libosprt_tests_t_paths_LDADD = $(OSPRT_WHITEBOX_LDADD)
## t_shared: shared path checks (ABI 8, one countdown) through __osp_path_end_shared and
## __osp_block_hooks with OSP_CHAIN_PATH: drawn and seen path ends, holds, the timer.
libosprt_tests_t_shared_SOURCES = libosprt/tests/t_shared.c libosprt/tests/pathgraphs.h \
	libosprt/tests/testutil.h
libosprt_tests_t_shared_LDADD = $(OSPRT_WHITEBOX_LDADD)
## t_forest: the k-slab forest and the k-IPF (forest.c) against brute-force n-gram counts, with
## and without pruning; `t_forest bench' is its micro-benchmark (not run by make check).
libosprt_tests_t_forest_SOURCES = libosprt/tests/t_forest.c libosprt/tests/testutil.h
libosprt_tests_t_forest_LDADD = $(OSPRT_WHITEBOX_LDADD)

## t_publish: the view writer (viewwrite.c) against ospview's parser (libosprt/format/) and the
## tsv report's stats, the publisher and its seqlock under stress (two reader threads), the segment's
## lifecycle (exit, stale sweep, publish=off, a taken name, exec, fork) in child processes.
libosprt_tests_t_publish_SOURCES = libosprt/tests/t_publish.c libosprt/tests/testutil.h
libosprt_tests_t_publish_LDADD = $(OSPRT_WHITEBOX_LDADD)

libosprt_tests_t_threads_SOURCES = libosprt/tests/t_threads.c libosprt/tests/testutil.h
libosprt_tests_t_threads_LDADD = $(OSPRT_BLACKBOX_LDADD)
libosprt_tests_t_fork_SOURCES = libosprt/tests/t_fork.c libosprt/tests/testutil.h
libosprt_tests_t_fork_LDADD = $(OSPRT_BLACKBOX_LDADD)
libosprt_tests_t_online_SOURCES = libosprt/tests/t_online.c libosprt/tests/testutil.h
libosprt_tests_t_online_LDADD = $(OSPRT_BLACKBOX_LDADD)
## t_pathrun: __osp_path_end through the shared library: threads, policies, the tsv report.
libosprt_tests_t_pathrun_SOURCES = libosprt/tests/t_pathrun.c libosprt/tests/pathgraphs.h \
	libosprt/tests/testutil.h
libosprt_tests_t_pathrun_LDADD = $(OSPRT_BLACKBOX_LDADD)
## t_folded: the folded hooks' entry points, one per register (trampoline.S), from stubs as
## plugin/fold.cc emits them; x86-64 only (skipped elsewhere).
libosprt_tests_t_folded_SOURCES = libosprt/tests/t_folded.c libosprt/tests/testutil.h
libosprt_tests_t_folded_LDADD = $(OSPRT_BLACKBOX_LDADD)

## t_sha256: the SHA-256 that the plugin and ospview share (sha256.c, not part of the runtime
## library) against FIPS 180-4's known answers.
libosprt_tests_t_sha256_SOURCES = libosprt/tests/t_sha256.c libosprt/sha256.h libosprt/sha256.c
libosprt_tests_t_sha256_CPPFLAGS = -I$(top_srcdir)/libosprt
