# SPDX-License-Identifier: GPL-3.0-or-later
# plugin/local.mk - osp.so, the GCC plugin (included from the top Makefile.am).
# GCC is built without RTTI: the plugin's pass classes derive from GCC's,
# so the plugin must be built with -fno-rtti or it fails to load.
plugin_LTLIBRARIES += plugin/osp.la
plugin_osp_la_SOURCES = \
	plugin/osp-plugin.h \
	plugin/plugin.cc \
	plugin/instrument.cc \
	plugin/numbering.cc \
	plugin/pathnum.cc \
	plugin/profile.cc \
	plugin/probes.cc \
	plugin/loops.cc \
	plugin/versions.cc \
	plugin/runs.cc \
	plugin/budget.cc \
	plugin/sizes.cc \
	plugin/hooks.cc \
	plugin/promote.cc \
	plugin/fold.cc \
	plugin/barriers.cc \
	plugin/tailcalls.cc \
	plugin/metadata.cc \
	plugin/linkcheck.cc \
	libosprt/sha256.h \
	libosprt/sha256.c
plugin_osp_la_CPPFLAGS = -I$(GCC_PLUGIN_INCLUDE) -I$(top_srcdir)/include \
	-I$(top_srcdir)/libosprt \
	-DOSP_VERSION='"$(PACKAGE_VERSION)"'
plugin_osp_la_CXXFLAGS = -std=gnu++17 -fno-rtti -fno-exceptions \
	-Wall -Wextra -Wno-unused-parameter
plugin_osp_la_LDFLAGS = -module -avoid-version -shared
