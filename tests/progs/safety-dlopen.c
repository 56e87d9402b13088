/* tests/progs/safety-dlopen.c - a program (built without osp) that installs its own SIGUSR2
   handler and then dlopens a library built with osp (safety-dlopen-lib.c), so that the runtime
   starts after the program set the signal; for tests/safety-fds.sh with report_signal=USR2.
   Usage: safety-dlopen LIBRARY.  It prints the library's result, then raises SIGUSR2 and says
   whose handler ran. */
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile sig_atomic_t got;

static void
on_usr2 (int sig)
{
  (void) sig;
  got++;
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    return 2;
  struct sigaction sa, old;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_usr2;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGUSR2, &sa, NULL);
  void *lib = dlopen (argv[1], RTLD_NOW);
  if (lib == NULL)
    {
      printf ("dlopen: %s\n", dlerror ());
      return 3;
    }
  unsigned long (*work) (unsigned) = (unsigned long (*) (unsigned)) dlsym (lib, "work");
  if (work == NULL)
    return 4;
  printf ("work %lu\n", work (3000));
  raise (SIGUSR2);
  sigaction (SIGUSR2, NULL, &old);
  printf ("handler ran %d time(s); the disposition is %s\n", (int) got,
          old.sa_handler == on_usr2 ? "the program's" : "not the program's");
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */
