/* SPDX-License-Identifier: MIT */
/* t_online.c - reports while the program runs, through the shared library
 * (black box): osp_report() to a path and to the configured destination,
 * report_signal=USR1 writing a report while the program keeps running,
 * exact walk counters with threads (merged at thread exit), and a forked
 * child that starts its own profile. */
#include "testutil.h"

#include "osp/osp.h"

#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>

static struct osp_fn_record recs[2] __attribute__ ((aligned (8)));
static uint32_t cfg_a[64], cfg_b[64];

static void
setup (void)
{
  osp_test_chain (&recs[0], cfg_a, "fa", "a.c", 4, 10);
  osp_test_chain (&recs[1], cfg_b, "fb", "b.c", 2, 20);
  __osp_register_module (OSP_ABI_VERSION, recs, recs + 2);
}

static void
work (long n)
{
  for (long i = 0; i < n; i++)
    osp_test_block (&recs[i % 7 == 3], (uint32_t) (i % 2));
}

static int
scenario_api (const char *dir)
{
  setup ();
  work (100000);
  char path[4200];
  snprintf (path, sizeof path, "%s/now.tsv", dir);
  CHECK_EQ (osp_report (path), 0);
  char *r = osp_test_slurp (path);
  CHECK_CONTAINS (r, "# osp-report 1 mode=subpaths\n");
  CHECK_CONTAINS (r, "\nsubpath\t1\t");
  CHECK_EQ (osp_test_stat (r, "blocks_seen"), 100000);
  free (r);
  work (1000);
  CHECK_EQ (osp_report (path), 0); /* again: replaced atomically */
  r = osp_test_slurp (path);
  CHECK_EQ (osp_test_stat (r, "blocks_seen"), 101000);
  free (r);
  CHECK_EQ (osp_report (NULL), 0); /* the configured report=... */
  CHECK_EQ (osp_report ("/nonexistent-dir/x.tsv"), -1);
  work (1000);
  return osp_test_failures ? 1 : 0;
}

static int
scenario_signal (const char *path)
{
  setup ();
  work (10000);
  kill (getpid (), SIGUSR1);
  double end = osp_test_deadline (20);
  struct stat st;
  for (;;)
    {
      work (1000); /* the program keeps running meanwhile */
      if (stat (path, &st) == 0)
        break;
      if (osp_test_expired (end))
        {
          fprintf (stderr, "no report after SIGUSR1\n");
          return 1;
        }
    }
  char *r = osp_test_slurp (path);
  CHECK_CONTAINS (r, "# osp-report 1 mode=subpaths\n");
  CHECK (osp_test_stat (r, "blocks_seen") > 0);
  free (r);
  unlink (path);
  /* The handler left the program's errno and signal mask alone. */
  sigset_t mask;
  pthread_sigmask (SIG_SETMASK, NULL, &mask);
  CHECK (!sigismember (&mask, SIGUSR1));
  return osp_test_failures ? 1 : 0;
}

static void *
worker (void *arg)
{
  work ((long) (intptr_t) arg);
  return NULL;
}

static int
scenario_threads (void)
{
  setup ();
  pthread_t th[4];
  for (int i = 0; i < 4; i++)
    pthread_create (&th[i], NULL, worker, (void *) (intptr_t) 50000);
  work (10000);
  for (int i = 0; i < 4; i++)
    pthread_join (th[i], NULL);
  return 0;
}

static int
scenario_fork (void)
{
  setup ();
  work (1000);
  fflush (NULL);
  pid_t pid = fork ();
  if (pid == 0)
    {
      work (5000);
      exit (0);
    }
  int status;
  waitpid (pid, &status, 0);
  work (2000);
  return WIFEXITED (status) ? WEXITSTATUS (status) : 1;
}

int
main (int argc, char **argv)
{
  if (argc > 2 && strcmp (argv[1], "api") == 0)
    return scenario_api (argv[2]);
  if (argc > 1 && strcmp (argv[1], "api") == 0)
    return scenario_api (getenv ("T_DIR"));
  if (argc > 1 && strcmp (argv[1], "signal") == 0)
    return scenario_signal (getenv ("T_PATH"));
  if (argc > 1 && strcmp (argv[1], "threads") == 0)
    return scenario_threads ();
  if (argc > 1 && strcmp (argv[1], "fork") == 0)
    return scenario_fork ();

  char *dir = osp_test_tmpdir ();
  char opts[4400], path[4200], err[4200];
  snprintf (err, sizeof err, "%s/err", dir);

  setenv ("T_DIR", dir, 1);
  snprintf (path, sizeof path, "%s/conf.tsv", dir);
  snprintf (opts, sizeof opts, "report=%s:report_format=tsv", path);
  CHECK_EQ (osp_test_run ("api", opts, NULL, err), 0);
  char *r = osp_test_slurp (path); /* the exit report */
  CHECK_EQ (osp_test_stat (r, "blocks_seen"), 102000);
  free (r);
  r = osp_test_slurp (err);
  CHECK_CONTAINS (r, "osp: cannot write the report to /nonexistent-dir/x.tsv");
  free (r);

  snprintf (path, sizeof path, "%s/sig.tsv", dir);
  setenv ("T_PATH", path, 1);
  snprintf (opts, sizeof opts,
            "report_signal=USR1:report=%s:report_format=tsv", path);
  CHECK_EQ (osp_test_run ("signal", opts, NULL, NULL), 0);
  unlink (path);

  snprintf (path, sizeof path, "%s/thr.tsv", dir);
  snprintf (opts, sizeof opts, "interval=30:report=%s:report_format=tsv",
            path);
  CHECK_EQ (osp_test_run ("threads", opts, NULL, NULL), 0);
  r = osp_test_slurp (path);
  CHECK_EQ (osp_test_stat (r, "blocks_seen"), 210000);
  CHECK_EQ (osp_test_stat (r, "threads"), 5);
  CHECK (osp_test_stat (r, "samples") > 1000);
  CHECK_EQ (osp_test_stat (r, "hotlist_offered"), osp_test_stat (r, "samples"));
  free (r);
  unlink (path);

  snprintf (opts, sizeof opts, "report=%s/f.%%p.tsv:report_format=tsv", dir);
  CHECK_EQ (osp_test_run ("fork", opts, NULL, NULL), 0);
  int reports = 0;
  char cmd[4400];
  snprintf (cmd, sizeof cmd, "cat %s/f.*.tsv | grep '^stat.blocks_seen' | "
            "sort > %s/seen", dir, dir);
  CHECK_EQ (system (cmd), 0);
  snprintf (path, sizeof path, "%s/seen", dir);
  r = osp_test_slurp (path);
  CHECK_STR (r, "stat\tblocks_seen\t3000\nstat\tblocks_seen\t5000\n");
  reports = r != NULL;
  free (r);
  snprintf (cmd, sizeof cmd, "rm -rf %s", dir);
  CHECK_EQ (system (cmd), 0);
  free (dir);
  (void) reports;
  return osp_test_done ("t_online");
}
