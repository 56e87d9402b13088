/* SPDX-License-Identifier: MIT */
/* testutil.h - helpers shared by the runtime's unit tests.
 *
 * The tests play the part of the plugin: they build osp_fn_records by hand
 * and run "blocks" and path ends exactly as generated code does (decrement
 * __osp_skip or __osp_path_countdown, call the runtime when it reaches 0),
 * so the runtime is exercised through the same ABI as in an instrumented
 * program.  (pathgraphs.h builds records with Ball-Larus path words.)
 *
 * A test that needs OSP_OPTIONS (read once, at start-up) re-executes
 * itself with the options set: osp_test_run() runs /proc/self/exe with an
 * argument naming the scenario and returns its exit status.
 *
 * Time limits are those of tests/env.sh: a test checks behaviour, never
 * speed, so a limit only stops a hung test.  It is written as seconds far
 * above an idle machine's run time and multiplied by the environment's
 * OSP_TEST_TIMEOUT_SCALE (default 5, as in tests/env.sh; tests/README.md,
 * "Time limits").  A test that waits for an effect polls for it:
 *     double end = osp_test_deadline (5);
 *     while (!effect () && !osp_test_expired (end))
 *       osp_test_nap ();
 * and never sleeps a fixed time expecting the effect to have happened.
 */
#ifndef OSP_TESTUTIL_H
#define OSP_TESTUTIL_H

#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "osp/abi.h"

static int osp_test_failures;

#define CHECK(cond)                                                          \
  do                                                                         \
    {                                                                        \
      if (!(cond))                                                           \
        {                                                                    \
          fprintf (stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__,  \
                   #cond);                                                   \
          osp_test_failures++;                                               \
        }                                                                    \
    }                                                                        \
  while (0)

#define CHECK_EQ(a, b)                                                       \
  do                                                                         \
    {                                                                        \
      unsigned long long a_ = (unsigned long long) (a);                      \
      unsigned long long b_ = (unsigned long long) (b);                      \
      if (a_ != b_)                                                          \
        {                                                                    \
          fprintf (stderr, "%s:%d: check failed: %s == %s (%llu != %llu)\n", \
                   __FILE__, __LINE__, #a, #b, a_, b_);                      \
          osp_test_failures++;                                               \
        }                                                                    \
    }                                                                        \
  while (0)

#define CHECK_STR(a, b)                                                      \
  do                                                                         \
    {                                                                        \
      const char *a_ = (a), *b_ = (b);                                       \
      if (a_ == NULL || strcmp (a_, b_) != 0)                                \
        {                                                                    \
          fprintf (stderr, "%s:%d: check failed: %s\n--- got:\n%s\n"         \
                   "--- expected:\n%s\n---\n",                               \
                   __FILE__, __LINE__, #a, a_ ? a_ : "(null)", b_);          \
          osp_test_failures++;                                               \
        }                                                                    \
    }                                                                        \
  while (0)

#define CHECK_CONTAINS(hay, needle)                                          \
  do                                                                         \
    {                                                                        \
      const char *h_ = (hay), *n_ = (needle);                                \
      if (h_ == NULL || strstr (h_, n_) == NULL)                             \
        {                                                                    \
          fprintf (stderr, "%s:%d: '%s' not found in:\n%s\n", __FILE__,      \
                   __LINE__, n_, h_ ? h_ : "(null)");                        \
          osp_test_failures++;                                               \
        }                                                                    \
    }                                                                        \
  while (0)

static inline int
osp_test_done (const char *name)
{
  if (osp_test_failures)
    {
      fprintf (stderr, "%s: %d check(s) failed\n", name, osp_test_failures);
      return 1;
    }
  printf ("%s: all checks passed\n", name);
  return 0;
}

/* ---- time limits ------------------------------------------------------ */

/* OSP_TEST_TIMEOUT_SCALE, or 5; anything but a positive number is a hard
   error (exit 99, as Automake counts it). */
static inline double
osp_test_scale (void)
{
  const char *e = getenv ("OSP_TEST_TIMEOUT_SCALE");
  if (e == NULL || *e == '\0')
    return 5;
  char *end;
  double k = strtod (e, &end);
  if (*end != '\0' || !(k > 0) || k > 1e6)
    {
      fprintf (stderr, "error: OSP_TEST_TIMEOUT_SCALE='%s' is not a positive "
               "number\n", e);
      exit (99);
    }
  return k;
}

/* The monotonic clock in seconds. */
static inline double
osp_test_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* When to give up waiting: BASE seconds (generous on an idle machine)
   times the scale, from now. */
static inline double
osp_test_deadline (double base)
{
  return osp_test_now () + base * osp_test_scale ();
}

static inline int
osp_test_expired (double deadline)
{
  return osp_test_now () >= deadline;
}

/* Sleep 10 ms between two looks at what a test waits for. */
static inline void
osp_test_nap (void)
{
  struct timespec ts = { 0, 10000000 };
  while (nanosleep (&ts, &ts) != 0 && errno == EINTR)
    ;
}

/* What generated code does at the start of block B of record R. */
static inline void
osp_test_block (struct osp_fn_record *r, uint32_t b)
{
  uint32_t t = __osp_skip;
  t = t - 1;
  __osp_skip = t;
  if (t == 0)
    __osp_block_hook (r, b);
}

/* What generated code does at a path end of record R whose path register
   holds ID.  (Relaxed atomics, not the plain load and store generated
   code uses: the same instructions on x86-64, but ThreadSanitizer knows
   the paths=timer thread's store to the countdown is not a race.) */
static inline void
osp_test_path_end (struct osp_fn_record *r, uint64_t id)
{
  uint32_t t = __atomic_load_n (&__osp_path_countdown, __ATOMIC_RELAXED);
  t = t - 1;
  __atomic_store_n (&__osp_path_countdown, t, __ATOMIC_RELAXED);
  if (t == 0)
    __osp_path_end (r, id);
}

/* Fill R as a function of NBLOCKS blocks in a chain 0 -> 1 -> ... -> exit,
   block b on lines LINE+b .. LINE+b, using CFG (room for 6 * NBLOCKS). */
static inline void
osp_test_chain (struct osp_fn_record *r, uint32_t *cfg, const char *name,
                const char *file, uint32_t nblocks, uint32_t line)
{
  uint32_t *w = cfg;
  for (uint32_t b = 0; b < nblocks; b++)
    {
      *w++ = line ? line + b : 0;
      *w++ = line ? line + b : 0;
      *w++ = (b == 0 ? OSP_BB_ENTRY : 0)
             | (b + 1 == nblocks ? OSP_BB_RETURNS : 0);
      *w++ = 1;
      *w++ = b + 1 == nblocks ? OSP_BLOCK_EXIT : b + 1;
      *w++ = OSP_EDGE_FALLTHRU;
    }
  memset (r, 0, sizeof *r);
  r->magic = OSP_FN_MAGIC;
  r->abi_version = OSP_ABI_VERSION;
  r->flags = OSP_FN_BLOCK_HOOKS;
  r->nblocks = nblocks;
  r->cfg_len = (uint32_t) (w - cfg);
  r->name = name;
  r->file = file;
  r->cfg = cfg;
}

/* Whole contents of PATH (malloc'ed, NUL-terminated), or NULL. */
static inline char *
osp_test_slurp (const char *path)
{
  FILE *f = fopen (path, "r");
  if (f == NULL)
    return NULL;
  char *buf = NULL;
  size_t cap = 0, len = 0;
  for (;;)
    {
      if (len + 4096 + 1 > cap)
        {
          cap = 2 * cap + 8192;
          buf = realloc (buf, cap);
          if (buf == NULL)
            abort ();
        }
      size_t n = fread (buf + len, 1, 4096, f);
      len += n;
      if (n == 0)
        break;
    }
  fclose (f);
  buf[len] = '\0';
  return buf;
}

/* OPTIONS (NULL: none) after "snapshot=none:" (a repeated key wins):
   a unit test never writes the default snapshot (PROG.ospsnap in the
   current directory, the build tree) unless it asks for a snapshot.
   Malloc'ed. */
static inline char *
osp_test_options (const char *options)
{
  char *o;
  if (asprintf (&o, "snapshot=none%s%s", options ? ":" : "",
                options ? options : "")
      < 0)
    abort ();
  return o;
}

/* Run this program again as "SELF SCENARIO" with OSP_OPTIONS=OPTIONS
   (osp_test_options: after snapshot=none), stdout/stderr to OUT/ERR paths
   if not NULL.  Returns the exit status, or -1 if it did not exit
   normally. */
static inline int
osp_test_run (const char *scenario, const char *options, const char *out,
              const char *err)
{
  fflush (NULL);
  pid_t pid = fork ();
  if (pid < 0)
    return -1;
  if (pid == 0)
    {
      setenv ("OSP_OPTIONS", osp_test_options (options), 1);
      if (out && !freopen (out, "w", stdout))
        _exit (126);
      if (err && !freopen (err, "w", stderr))
        _exit (126);
      execl ("/proc/self/exe", "osp-test", scenario, (char *) NULL);
      _exit (127);
    }
  int status;
  while (waitpid (pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

/* A fresh scratch directory (malloc'ed path). */
static inline char *
osp_test_tmpdir (void)
{
  const char *base = getenv ("TMPDIR");
  char *t;
  if (asprintf (&t, "%s/osprt-test.XXXXXX", base && *base ? base : "/tmp")
      < 0)
    abort ();
  if (mkdtemp (t) == NULL)
    {
      perror ("mkdtemp");
      exit (2);
    }
  return t;
}

/* Run scenario "work" with mode=blocks and a tsv report (and OPTIONS, NULL:
   none, after them), in a scratch directory removed after: its stdout in
   *OUT and the report in *REPORT (malloc'ed; NULL when missing).  Returns
   the exit status (osp_test_run). */
static inline int
osp_test_run_blocks (const char *options, char **out, char **report)
{
  char *dir = osp_test_tmpdir ();
  char opts[8400], o[4200], r[4200];
  snprintf (o, sizeof o, "%s/out", dir);
  snprintf (r, sizeof r, "%s/report.tsv", dir);
  snprintf (opts, sizeof opts, "mode=blocks:report=%s:report_format=tsv%s%s", r,
            options ? ":" : "", options ? options : "");
  int rc = osp_test_run ("work", opts, o, NULL);
  *out = osp_test_slurp (o);
  *report = osp_test_slurp (r);
  unlink (o);
  unlink (r);
  rmdir (dir);
  free (dir);
  return rc;
}

/* The count of "block\tFID\tB\t..." (its last field) in a tsv REPORT, or -1. */
static inline long long
osp_test_block_count (const char *report, int fid, int b)
{
  char key[64];
  snprintf (key, sizeof key, "\nblock\t%d\t%d\t", fid, b);
  const char *l = strstr (report, key);
  if (l == NULL)
    return -1;
  const char *tab = strchr (l + 1, '\n');
  while (tab > l && tab[-1] != '\t')
    tab--;
  return atoll (tab);
}

/* The value of "stat\tNAME\t..." in a tsv REPORT, or -1. */
static inline long long
osp_test_stat (const char *report, const char *name)
{
  char key[64];
  snprintf (key, sizeof key, "\nstat\t%s\t", name);
  const char *l = strstr (report, key);
  return l ? atoll (l + strlen (key)) : -1;
}

#endif /* OSP_TESTUTIL_H */
