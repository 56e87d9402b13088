/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/oneflag.sh: calls oneflag-lib.c's function, found by the link (default: a plain program
   linked against the instrumented library), through dlopen of the path in argv[1]
   (-DONEFLAG_DLOPEN: a plain program that links nothing of osp), or compiled in
   (-DONEFLAG_STATIC: a -static program built with the one flag). */
#include <stdio.h>
#if defined ONEFLAG_STATIC
#include "oneflag-lib.c"
#elif defined ONEFLAG_DLOPEN
#include <dlfcn.h>
#else
unsigned long oneflag_lib_work (unsigned long n);
#endif

int
main (int argc, char **argv)
{
  unsigned long (*work) (unsigned long);
#ifdef ONEFLAG_DLOPEN
  void *h = argc > 1 ? dlopen (argv[1], RTLD_NOW) : 0;
  if (!h)
    {
      fprintf (stderr, "dlopen: %s\n", argc > 1 ? dlerror () : "no library named");
      return 2;
    }
  work = (unsigned long (*) (unsigned long)) dlsym (h, "oneflag_lib_work");
#else
  (void) argc;
  (void) argv;
  work = oneflag_lib_work;
#endif
  printf ("lib %lu\n", work (100000));
  return 0;
}
