/* SPDX-License-Identifier: MIT */
/* t_fork.c - fork: each child starts its own profile (zero counts, its own
 * report file named with its own pid, only its own thread), the parent
 * keeps its own; and forking while other threads are inside the runtime
 * (hooks, thread creation and exit, which take the runtime's locks) never
 * deadlocks the child.  And a fork in a hold (shared path checks under
 * paths=exhaustive: the hooks pass the skip's blocks through the sample
 * cursor's allowance): the child counts every one of its blocks, none
 * passed by the parent's allowance (blocks_seen exact).  Black box:
 * shared library and tsv reports only. */
#include "testutil.h"

#include "osprt.h"
#include "pathgraphs.h"

#include <pthread.h>
#include <stdatomic.h>

#define NCHILDREN 20

static struct osp_fn_record recs[2] __attribute__ ((aligned (8)));
static uint32_t cfg_a[32], cfg_b[32];
static atomic_int stop;

/* Counts block 3 forever. */
static void *
hammer (void *arg)
{
  (void) arg;
  while (!atomic_load (&stop))
    osp_test_block (&recs[0], 3);
  return NULL;
}

static void *
short_lived (void *arg)
{
  (void) arg;
  osp_test_block (&recs[1], 0);
  return NULL;
}

/* Keeps creating threads whose state is made and released around forks. */
static void *
creator (void *arg)
{
  (void) arg;
  while (!atomic_load (&stop))
    {
      pthread_t t;
      if (pthread_create (&t, NULL, short_lived, NULL) == 0)
        pthread_join (t, NULL);
    }
  return NULL;
}

static int
scenario_work (void)
{
  osp_test_chain (&recs[0], cfg_a, "fa", "a.c", 4, 10);
  osp_test_chain (&recs[1], cfg_b, "fb", "b.c", 1, 20);
  __osp_register_module (OSP_ABI_VERSION, recs, recs + 2);
  for (int i = 0; i < 100; i++)
    osp_test_block (&recs[0], 0);

  pthread_t h, c;
  pthread_create (&h, NULL, hammer, NULL);
  pthread_create (&c, NULL, creator, NULL);
  for (int k = 0; k < NCHILDREN; k++)
    {
      fflush (stdout);
      pid_t pid = fork ();
      if (pid == 0)
        {
          for (int i = 0; i < 3; i++)
            osp_test_block (&recs[0], 2);
          exit (0); /* the child's own exit report */
        }
      printf ("child %ld\n", (long) pid);
      int status;
      waitpid (pid, &status, 0);
      if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
        return 1;
    }
  atomic_store (&stop, 1);
  pthread_join (h, NULL);
  pthread_join (c, NULL);
  for (int i = 0; i < 5; i++)
    osp_test_block (&recs[0], 0);
  printf ("parent %ld\n", (long) getpid ());
  return 0;
}

/* The loop of pathgraphs.h with shared path checks, as t_shared drives
   it; under paths=exhaustive the runtime holds __osp_skip at 1. */
static struct tg g_loop;
static struct osp_fn_record r_loop __attribute__ ((aligned (8)));

static void
shared_end (uint64_t id)
{
  if (__atomic_load_n (&__osp_skip, __ATOMIC_RELAXED) == 1)
    __osp_path_end_shared (&r_loop, id);
}

static int
scenario_hold (void)
{
  tg_loop (&g_loop);
  tg_build (&g_loop, &r_loop, "loop", "loop.c");
  r_loop.flags |= OSP_FN_PATH_CHECKS | OSP_FN_PATH_SHARED;
  __osp_register_module (OSP_ABI_VERSION, &r_loop, &r_loop + 1);
  for (int a = 0; a < 50; a++)
    {
      osp_test_block (&r_loop, 0);
      shared_end (0);
      for (int i = 0; i < 10; i++)
        {
          osp_test_block (&r_loop, 1);
          osp_test_block (&r_loop, 2);
          osp_test_block (&r_loop, 3);
          shared_end (1);
        }
      osp_test_block (&r_loop, 1);
      osp_test_block (&r_loop, 5);
      shared_end (3);
    }
  fflush (stdout);
  pid_t pid = fork ();
  if (pid == 0)
    {
      for (int i = 0; i < 100; i++)
        osp_test_block (&r_loop, 2);
      exit (0);
    }
  printf ("child %ld\nparent %ld\n", (long) pid, (long) getpid ());
  int status;
  waitpid (pid, &status, 0);
  return WIFEXITED (status) && WEXITSTATUS (status) == 0 ? 0 : 1;
}

static void
check_hold (const char *dir)
{
  char opts[4300], out[4200], rep[4300];
  snprintf (out, sizeof out, "%s/hold.out", dir);
  snprintf (opts, sizeof opts,
            "mode=subpaths:paths=exhaustive:forest=off:report=%s/h.%%p:"
            "report_format=tsv", dir);
  CHECK_EQ (osp_test_run ("hold", opts, out, NULL), 0);
  char *o = osp_test_slurp (out);
  long child, parent;
  int got = o != NULL
            && sscanf (o, "child %ld\nparent %ld", &child, &parent) == 2;
  CHECK (got);
  if (got)
    {
      snprintf (rep, sizeof rep, "%s/h.%ld", dir, child);
      char *r = osp_test_slurp (rep);
      CHECK (r != NULL);
      if (r)
        CHECK_EQ (osp_test_stat (r, "blocks_seen"), 100);
      free (r);
      unlink (rep);
      snprintf (rep, sizeof rep, "%s/h.%ld", dir, parent);
      unlink (rep);
    }
  free (o);
  unlink (out);
}

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "work") == 0)
    return scenario_work ();
  if (argc > 1 && strcmp (argv[1], "hold") == 0)
    return scenario_hold ();

  char *dir = osp_test_tmpdir ();
  char opts[4300], out[4200], rep[4300];
  snprintf (out, sizeof out, "%s/out", dir);
  snprintf (opts, sizeof opts, "mode=blocks:report=%s/r.%%p:report_format=tsv", dir);
  CHECK_EQ (osp_test_run ("work", opts, out, NULL), 0);
  char *o = osp_test_slurp (out);
  int children = 0, parents = 0;
  for (char *line = o; line && *line;)
    {
      char *nl = strchr (line, '\n');
      long pid;
      int is_child = sscanf (line, "child %ld", &pid) == 1;
      if (is_child || sscanf (line, "parent %ld", &pid) == 1)
        {
          snprintf (rep, sizeof rep, "%s/r.%ld", dir, pid);
          char *r = osp_test_slurp (rep);
          CHECK (r != NULL);
          if (r && is_child)
            {
              children++;
              CHECK_EQ (osp_test_block_count (r, 1, 2), 3);
              CHECK_EQ (osp_test_block_count (r, 1, 0), -1); /* parent's counts */
              CHECK_EQ (osp_test_block_count (r, 1, 3), -1); /* hammer's */
              CHECK_EQ (osp_test_stat (r, "threads"), 1);
            }
          else if (r)
            {
              parents++;
              CHECK_EQ (osp_test_block_count (r, 1, 0), 105);
              CHECK_EQ (osp_test_block_count (r, 1, 2), -1); /* children's */
              CHECK (osp_test_block_count (r, 1, 3) > 0);
              CHECK (osp_test_block_count (r, 2, 0) > 0);
              CHECK_EQ (osp_test_stat (r, "threads"),
                        2 + osp_test_block_count (r, 2, 0));
            }
          free (r);
          unlink (rep);
        }
      line = nl ? nl + 1 : NULL;
    }
  CHECK_EQ (children, NCHILDREN);
  CHECK_EQ (parents, 1);
  free (o);
  unlink (out);
  check_hold (dir);
  rmdir (dir);
  free (dir);
  return osp_test_done ("t_fork");
}
