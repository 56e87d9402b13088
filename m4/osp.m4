# SPDX-License-Identifier: GPL-3.0-or-later
# m4/osp.m4 - osp's own configure checks.

# OSP_GCC_PLUGIN
# --------------
# Find GCC's plugin directory through `$CC -print-file-name=plugin`, check that its headers are
# there and that $CXX compiles a file including gcc-plugin.h.  Substitutes GCC_PLUGIN_INCLUDE and
# plugindir (default: GCC's plugin directory; --with-plugindir=DIR overrides).
AC_DEFUN([OSP_GCC_PLUGIN],
[AC_REQUIRE([AC_PROG_CC])dnl
AC_REQUIRE([AC_PROG_CXX])dnl
AS_IF([test "x$GCC" != xyes],
  [AC_MSG_ERROR([osp is a GCC plugin: the C compiler must be GCC (CC=$CC is not)])])
osp_gcc_version=`$CC -dumpfullversion 2>/dev/null || $CC -dumpversion 2>/dev/null`
osp_gcc_major=`$CC -dumpversion 2>/dev/null | sed 's/\..*//'`
AS_IF([test "x$osp_gcc_major" = x], [osp_gcc_major=N])
osp_plugin_pkg="gcc-$osp_gcc_major-plugin-dev"
AC_MSG_CHECKING([for GCC's plugin directory])
osp_gcc_plugin_dir=`$CC -print-file-name=plugin 2>/dev/null`
AS_CASE([$osp_gcc_plugin_dir],
  [/*], [AC_MSG_RESULT([$osp_gcc_plugin_dir])],
  [AC_MSG_RESULT([not found])
   AC_MSG_ERROR([$CC does not know a plugin directory (`$CC -print-file-name=plugin' printed `$osp_gcc_plugin_dir').
The GCC plugin headers are missing: on Debian/Ubuntu install them with:  apt-get install $osp_plugin_pkg])])
AC_MSG_CHECKING([for $osp_gcc_plugin_dir/include/gcc-plugin.h])
AS_IF([test -f "$osp_gcc_plugin_dir/include/gcc-plugin.h"],
  [AC_MSG_RESULT([yes])],
  [AC_MSG_RESULT([no])
   AC_MSG_ERROR([GCC's plugin headers were not found in $osp_gcc_plugin_dir/include.
On Debian/Ubuntu install them with:  apt-get install $osp_plugin_pkg])])
GCC_PLUGIN_INCLUDE="$osp_gcc_plugin_dir/include"
AC_SUBST([GCC_PLUGIN_INCLUDE])

AC_CACHE_CHECK([whether $CXX compiles a GCC plugin], [osp_cv_cxx_gcc_plugin],
[AC_LANG_PUSH([C++])
osp_save_CPPFLAGS=$CPPFLAGS
CPPFLAGS="$CPPFLAGS -I$GCC_PLUGIN_INCLUDE"
AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[
#include "gcc-plugin.h"
#include "plugin-version.h"
#include "tree.h"
#include "tree-pass.h"
int plugin_is_GPL_compatible;
]], [[return plugin_default_version_check (0, 0) ? 0 : 1;]])],
  [osp_cv_cxx_gcc_plugin=yes], [osp_cv_cxx_gcc_plugin=no])
CPPFLAGS=$osp_save_CPPFLAGS
AC_LANG_POP([C++])])
AS_IF([test "x$osp_cv_cxx_gcc_plugin" != xyes],
  [AC_MSG_ERROR([the C++ compiler `$CXX' cannot compile a file that includes gcc-plugin.h.
The plugin is C++ and must be built by the g++ that matches $CC (GCC $osp_gcc_version):
on Debian/Ubuntu install it with:  apt-get install g++-$osp_gcc_major $osp_plugin_pkg
(see config.log for the compiler's messages)])])
osp_cxx_version=`$CXX -dumpfullversion 2>/dev/null || $CXX -dumpversion 2>/dev/null`
AS_IF([test "x$osp_cxx_version" != "x$osp_gcc_version"],
  [AC_MSG_WARN([$CXX is version $osp_cxx_version but $CC is $osp_gcc_version: build the plugin with the g++ of the same GCC (CXX=g++-$osp_gcc_major)])])

AC_ARG_WITH([plugindir],
  [AS_HELP_STRING([--with-plugindir=DIR],
    [install osp.so into DIR (default: GCC's plugin directory, `$CC -print-file-name=plugin')])],
  [AS_CASE([$withval],
     [yes|no|""], [AC_MSG_ERROR([--with-plugindir needs a directory])],
     [plugindir=$withval])],
  [plugindir=$osp_gcc_plugin_dir])
AC_SUBST([plugindir])
])

# OSP_PTHREAD
# -----------
# Check that the C compiler builds and links a threaded program with -pthread.  Substitutes
# PTHREAD_CFLAGS and PTHREAD_LIBS.
AC_DEFUN([OSP_PTHREAD],
[AC_REQUIRE([AC_PROG_CC])dnl
AC_CACHE_CHECK([whether $CC links threaded programs with -pthread], [osp_cv_pthread],
[osp_save_CFLAGS=$CFLAGS
osp_save_LIBS=$LIBS
CFLAGS="$CFLAGS -pthread"
LIBS="-pthread $LIBS"
AC_LINK_IFELSE([AC_LANG_PROGRAM([[
#include <pthread.h>
static __thread int tls;
static void *run (void *p) { tls = 1; return p; }
]], [[pthread_t t;
pthread_key_t k;
if (pthread_create (&t, 0, run, 0) != 0) return 1;
if (pthread_key_create (&k, 0) != 0) return 1;
return pthread_join (t, 0) + tls;]])],
  [osp_cv_pthread=yes], [osp_cv_pthread=no])
CFLAGS=$osp_save_CFLAGS
LIBS=$osp_save_LIBS])
AS_IF([test "x$osp_cv_pthread" != xyes],
  [AC_MSG_ERROR([$CC cannot build threaded programs with -pthread (POSIX threads and __thread are required; see config.log)])])
PTHREAD_CFLAGS=-pthread
PTHREAD_LIBS=-pthread
AC_SUBST([PTHREAD_CFLAGS])
AC_SUBST([PTHREAD_LIBS])
])
