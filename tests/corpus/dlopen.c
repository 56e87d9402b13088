/* osp-test: lib=dlopen-lib.c ldflags=-ldl
   A -fPIC shared library (built and instrumented the same way as this program) loaded with
   dlopen, called through dlsym, and unloaded with dlclose; then loaded again. */
#include <dlfcn.h>
#include <stdio.h>

typedef long (*fn_t) (long);

static int __attribute__((noinline)) use (const char *path, long arg)
{
  void *h = dlopen (path, RTLD_NOW | RTLD_LOCAL);
  if (!h)
    {
      printf ("dlopen failed: %s\n", dlerror ());
      return 1;
    }
  fn_t f = (fn_t) dlsym (h, "lib_compute");
  long (*g) (void) = (long (*) (void)) dlsym (h, "lib_calls");
  if (!f || !g)
    {
      printf ("dlsym failed\n");
      return 1;
    }
  long r = f (arg);
  printf ("lib_compute(%ld) = %ld, calls %ld\n", arg, r, g ());
  dlclose (h);
  return 0;
}

int main (int argc, char **argv)
{
  if (argc < 2)
    {
      printf ("usage: dlopen LIBRARY\n");
      return 2;
    }
  int rc = use (argv[1], 20);
  rc |= use (argv[1], 25);
  return rc;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */
