# SPDX-License-Identifier: MIT
## examples/local.mk - included by the top-level Makefile.am (see doc/CONTRACTS.md).
##
## `make demo' builds examples/demo.c with the uninstalled plugin and runtime of this build tree
## and runs it under ospview (examples/demo.sh: the live UI on a terminal, two refreshes as text
## elsewhere), then prints its exit report.  `make installcheck' (also run by distcheck) builds
## it again against the installed osp through pkg-config, as a user would.

EXTRA_DIST += examples/demo.c examples/demo.sh
CLEANFILES += examples/demo$(EXEEXT) examples/demo-installed$(EXEEXT)

OSP_DEMO_CFLAGS = -O2 -g
OSP_BUILD_PLUGIN = $(abs_top_builddir)/plugin/.libs/osp.so
OSP_BUILD_RTDIR = $(abs_top_builddir)/libosprt/.libs

examples/demo$(EXEEXT): $(srcdir)/examples/demo.c plugin/osp.la libosprt/libosprt.la
	@$(MKDIR_P) examples
	$(AM_V_CC)src=$(srcdir)/examples/demo.c; test "$(srcdir)" != . || src=examples/demo.c; \
	$(CC) $(OSP_DEMO_CFLAGS) -fplugin=$(OSP_BUILD_PLUGIN) -I$(top_srcdir)/include \
	  $$src -o $@ \
	  -L$(OSP_BUILD_RTDIR) -Wl,-rpath,$(OSP_BUILD_RTDIR) -losprt $(PTHREAD_LIBS)

.PHONY: demo
demo: examples/demo$(EXEEXT) viewer/ospview$(EXEEXT)
	@$(SHELL) $(srcdir)/examples/demo.sh ./examples/demo$(EXEEXT) ./viewer/ospview$(EXEEXT)

# Build and run the demo against the installed osp, with the flags of the installed osp.pc.
installcheck-local: installcheck-demo
.PHONY: installcheck-demo
installcheck-demo:
	@$(MKDIR_P) examples
	@PKG_CONFIG_PATH="$(pkgconfigdir)$${PKG_CONFIG_PATH:+:$$PKG_CONFIG_PATH}"; \
	export PKG_CONFIG_PATH; \
	flags=`$(PKG_CONFIG) --cflags --libs osp` || exit 1; \
	echo "$(CC) $(OSP_DEMO_CFLAGS) $$flags examples/demo.c"; \
	$(CC) $(OSP_DEMO_CFLAGS) $$flags $(srcdir)/examples/demo.c -o examples/demo-installed$(EXEEXT) \
	  && OSP_OPTIONS=report=none:snapshot=none ./examples/demo-installed$(EXEEXT) 0.1
