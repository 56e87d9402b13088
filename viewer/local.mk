# SPDX-License-Identifier: GPL-3.0-or-later
## viewer/local.mk - ospview, the live viewer (included by the top-level Makefile.am; appends
## only).  C11, ncursesw from configure (NCURSESW_CFLAGS/NCURSESW_LIBS).  It links the view
## format library (libosprt/format/: parsing, building, checksums, snapshot files) and compiles
## the SHA-256 it shares with the plugin (libosprt/sha256.c: a source file's text is shown only
## when it has the digest the plugin recorded, viewer/srctext.c), but nothing else of the
## runtime: it reads the shared-memory segments (include/osp/shm.h, include/osp/view.h).

bin_PROGRAMS += viewer/ospview
viewer_ospview_SOURCES = \
	viewer/ospview.h \
	viewer/ospview.c \
	viewer/segment.c \
	viewer/snapshot.c \
	viewer/source.c \
	viewer/screens.c \
	viewer/status.c \
	viewer/batch.c \
	viewer/text.c \
	viewer/export.h \
	viewer/export.c \
	viewer/export-json.c \
	viewer/export-dot.c \
	viewer/export-annotate.c \
	viewer/export-pprof.c \
	viewer/export-folded.c \
	viewer/pbwrite.h \
	viewer/pbwrite.c \
	viewer/diff.c \
	viewer/recent.c \
	viewer/merge.c \
	viewer/provider.h \
	viewer/tui.h \
	viewer/tui.c \
	viewer/keys.c \
	viewer/srctext.c \
	libosprt/sha256.h \
	libosprt/sha256.c
viewer_ospview_CPPFLAGS = -I$(top_srcdir)/include -I$(top_srcdir)/libosprt \
	-I$(top_srcdir)/libosprt/format -I$(top_srcdir)/viewer $(NCURSESW_CFLAGS)
viewer_ospview_CFLAGS = -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes
viewer_ospview_LDADD = libosprt/format/libospformat-read.la libosprt/format/libospformat.la \
	$(NCURSESW_LIBS) -lm
EXTRA_DIST += viewer/README viewer/fuzz-view.c
