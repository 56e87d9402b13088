# SPDX-License-Identifier: MIT
## libosprt/format/local.mk - the view format library (included by the top-level Makefile.am
## before libosprt/local.mk; appends only).
##
## One owner of the format of include/osp/view.h and include/osp/snapshot.h: validating a view
## and a snapshot file's header (viewparse.c, the one validation every reader uses), laying a
## view out (viewemit.c, shared by the runtime's viewwrite.c and by the builder viewbuild.c
## that ospview --merge uses), the CRC-32 of its sections, its string
## table, snapshot files and files written whole (snapfile.c), a path's blocks as steps
## (steps.c: the text report and ospview's rows read alike), a row's work share (workshare.h:
## the runtime's reports and ospview's exports share one rule).  Two libtool convenience
## libraries, never installed: libospformat.la, what writing a view needs, linked into libosprt
## (its symbols stay hidden there, -fvisibility=hidden), ospview and the tests; and
## libospformat-read.la, what only ospview and the tests call (the reader viewparse.c, the
## builder viewbuild.c, their messages errmsg.c), linked into ospview and the unit tests only:
## a convenience library is linked whole into a shared one, so whatever libospformat.la holds
## is in libosprt.so whether the runtime calls it or not.  A program that links the reader
## links libospformat.la after it (the reader's CRC-32, the builder's emitter).
## Plain C11, no pthreads, no curses.

noinst_LTLIBRARIES += libosprt/format/libospformat.la
libosprt_format_libospformat_la_SOURCES = \
	libosprt/format/crc32.h \
	libosprt/format/crc32.c \
	libosprt/format/grow.h \
	libosprt/format/grow.c \
	libosprt/format/strtab.h \
	libosprt/format/strtab.c \
	libosprt/format/snapfile.h \
	libosprt/format/snapfile.c \
	libosprt/format/viewemit.h \
	libosprt/format/viewemit.c \
	libosprt/format/steps.h \
	libosprt/format/steps.c \
	libosprt/format/workshare.h
OSPFORMAT_CPPFLAGS = -I$(top_srcdir)/include -I$(top_srcdir)/libosprt/format
libosprt_format_libospformat_la_CPPFLAGS = $(OSPFORMAT_CPPFLAGS)
libosprt_format_libospformat_la_CFLAGS = -std=c11 -fvisibility=hidden \
	-Wall -Wextra -Wshadow -Wstrict-prototypes

noinst_LTLIBRARIES += libosprt/format/libospformat-read.la
libosprt_format_libospformat_read_la_SOURCES = \
	libosprt/format/errmsg.h \
	libosprt/format/errmsg.c \
	libosprt/format/viewbuild.h \
	libosprt/format/viewbuild.c \
	libosprt/format/viewparse.h \
	libosprt/format/viewparse.c
libosprt_format_libospformat_read_la_CPPFLAGS = $(OSPFORMAT_CPPFLAGS)
libosprt_format_libospformat_read_la_CFLAGS = $(libosprt_format_libospformat_la_CFLAGS)
