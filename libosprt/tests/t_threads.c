/* SPDX-License-Identifier: MIT */
/* t_threads.c - exact totals with 8 threads, through the shared library
 * and the tsv exit report only (a black-box test of the ABI and of the
 * exported symbols).
 *
 * The workload runs as a child process with OSP_OPTIONS set: 8 threads
 * run known block sequences and exit (their counts merge at thread exit),
 * the main thread counts too, a signal handler running instrumented code
 * interrupts the workers (nested hooks must neither deadlock nor corrupt
 * counts), and a spinning thread is still counting when main returns (the
 * report must still come out, once). */
#include "testutil.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>

#define NTHREADS 8

static long iters = 100000;
static struct osp_fn_record recs[4] __attribute__ ((aligned (8)));
static uint32_t cfg_a[32], cfg_b[32], cfg_c[32], cfg_d[32];
static atomic_long handled;
static atomic_int spinner_started, signals_sent;

static void
on_signal (int sig)
{
  (void) sig;
  osp_test_block (&recs[3], 0);
  atomic_fetch_add (&handled, 1);
}

static void *
worker (void *arg)
{
  long k = (long) (intptr_t) arg;
  for (long i = 0; i < iters; i++)
    {
      osp_test_block (&recs[0], 0);
      osp_test_block (&recs[0], 1);
      if (i % 3 == 0)
        osp_test_block (&recs[0], 2);
      osp_test_block (&recs[0], 3);
      osp_test_block (&recs[1], 0);
      if (i % 7 == k % 7)
        osp_test_block (&recs[1], 1);
    }
  /* Alive until every signal is sent: a signal sent to a thread that
     has exited is not delivered, and on a busy machine the main thread
     may send all 200 after the workers are done (none handled). */
  while (!atomic_load (&signals_sent))
    sched_yield ();
  return NULL;
}

static void *
spinner (void *arg)
{
  (void) arg;
  osp_test_block (&recs[2], 0);
  atomic_store (&spinner_started, 1);
  for (;;)
    osp_test_block (&recs[2], 0);
  return NULL;
}

static int
scenario_work (void)
{
  const char *e = getenv ("OSP_TEST_ITERS");
  if (e)
    iters = atol (e);
  osp_test_chain (&recs[0], cfg_a, "fa", "a.c", 4, 10);
  osp_test_chain (&recs[1], cfg_b, "fb", "b.c", 3, 20);
  osp_test_chain (&recs[2], cfg_c, "spin", "c.c", 1, 30);
  osp_test_chain (&recs[3], cfg_d, "handler", "d.c", 1, 40);
  __osp_register_module (OSP_ABI_VERSION, recs, recs + 4);
  __osp_register_module (OSP_ABI_VERSION, recs, recs + 4);
  osp_test_block (&recs[0], 0);

  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction (SIGUSR1, &sa, NULL);

  pthread_t spin, th[NTHREADS];
  pthread_create (&spin, NULL, spinner, NULL);
  while (!atomic_load (&spinner_started))
    sched_yield ();
  for (long k = 0; k < NTHREADS; k++)
    pthread_create (&th[k], NULL, worker, (void *) (intptr_t) k);
  for (int s = 0; s < 200; s++)
    {
      pthread_kill (th[s % NTHREADS], SIGUSR1);
      usleep (100);
    }
  atomic_store (&signals_sent, 1);
  for (int k = 0; k < NTHREADS; k++)
    pthread_join (th[k], NULL);
  printf ("handled %ld\n", atomic_load (&handled));
  return 0; /* exit with the spinner still counting */
}

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "work") == 0)
    return scenario_work ();

  const char *e = getenv ("OSP_TEST_ITERS");
  if (e)
    iters = atol (e);
  char *r, *o;
  CHECK_EQ (osp_test_run_blocks (NULL, &o, &r), 0);
  CHECK (r != NULL && o != NULL);
  if (r && o)
    {
      long long n = NTHREADS * (long long) iters;
      long long b1 = 0;
      for (int k = 0; k < NTHREADS; k++)
        for (long i = 0; i < iters; i++)
          b1 += i % 7 == k % 7;
      CHECK_EQ (osp_test_block_count (r, 1, 0), n + 1); /* + main's */
      CHECK_EQ (osp_test_block_count (r, 1, 1), n);
      CHECK_EQ (osp_test_block_count (r, 1, 2), NTHREADS * ((iters + 2) / 3));
      CHECK_EQ (osp_test_block_count (r, 1, 3), n);
      CHECK_EQ (osp_test_block_count (r, 2, 0), n);
      CHECK_EQ (osp_test_block_count (r, 2, 1), b1);
      CHECK_EQ (osp_test_block_count (r, 2, 2), -1); /* never entered: no row */
      CHECK (osp_test_block_count (r, 3, 0) >= 1);
      long long handled_n = atoll (o + strlen ("handled "));
      long long d = osp_test_block_count (r, 4, 0);
      /* In mode=blocks a worker spends much of its time inside the hook,
         so most handler hooks are nested and only counted as lost.  A
         handler's block is missed, not miscounted, when the signal lands
         between generated code's store of 0 into __osp_skip and its hook
         call (the handler then decrements past 0). */
      CHECK (handled_n > 0);
      CHECK ((d < 0 ? 0 : d) + osp_test_stat (r, "hits_lost") <= handled_n);
      CHECK_EQ (osp_test_stat (r, "threads"), NTHREADS + 2);
      CHECK_EQ (osp_test_stat (r, "functions"), 4);
      CHECK_EQ (osp_test_stat (r, "modules"), 1);
      CHECK_EQ (osp_test_stat (r, "unregistered_hits"), 0);
      const char *last = strrchr (r, '#');
      CHECK (last == r); /* one report */
    }
  free (r);
  free (o);
  return osp_test_done ("t_threads");
}
