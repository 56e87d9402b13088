/* SPDX-License-Identifier: MIT */
/* t_report.c - the exit report: the exact tsv of doc/CONTRACTS.md, the
 * text tables (order, shares, locations, report_top, NO_HOOK blocks), and
 * the destinations: a file written atomically with %p expanded, an
 * unwritable path, a closed pipe on stdout (no SIGPIPE death), and the
 * real exit path of a program. */
#include "testutil.h"

#include "osprt.h"
#include "format/workshare.h"

#include <dirent.h>
#include <math.h>
#include <fcntl.h>
#include <signal.h>

static struct osp_fn_record recs[3] __attribute__ ((aligned (8)));
static uint32_t cfg_hot[32], cfg_cold[32], cfg_never[32];

static void
setup (void)
{
  osp_test_chain (&recs[0], cfg_hot, "hot", "h.c", 3, 10);
  cfg_hot[6] = cfg_hot[7] = 0;   /* block 1 has no line */
  cfg_hot[14] |= OSP_BB_NO_HOOK; /* block 2 cannot be counted */
  osp_test_chain (&recs[1], cfg_cold, "cold", "c.c", 2, 20);
  cfg_cold[1] = 25; /* block 0 spans lines 20-25 */
  osp_test_chain (&recs[2], cfg_never, "never", "n.c", 1, 30);
  __osp_register_module (OSP_ABI_VERSION, recs, recs + 3);
  for (int i = 0; i < 4; i++)
    osp_test_block (&recs[0], 0);
  for (int i = 0; i < 6; i++)
    osp_test_block (&recs[0], 1);
  osp_test_block (&recs[1], 0);
  osp_test_block (&recs[1], 1);
  osp_test_block (&recs[1], 0);
}

static char *
format (enum osp_report_format fmt, uint32_t top)
{
  struct osp_options o;
  osp_options_defaults (&o);
  o.report_format = fmt;
  o.report_top = top;
  struct osp_profile p;
  char *buf = NULL;
  size_t len = 0;
  if (osp_profile_take (&p) != 0)
    return NULL;
  FILE *f = open_memstream (&buf, &len);
  CHECK_EQ (osp_report_format (f, &p, &o), 0);
  fclose (f);
  osp_profile_free (&p);
  return buf;
}

static const char expected_tsv[]
    = "# osp-report 1 mode=blocks\n"
      "module\t0\t3\n"
      "function\t1\thot\th.c\t10\t4\t10\n"
      "function\t2\tcold\tc.c\t20\t2\t3\n"
      "function\t3\tnever\tn.c\t30\t0\t0\n"
      "block\t1\t0\thot\th.c\t10\t10\t4\n"
      "block\t1\t1\thot\th.c\t0\t0\t6\n"
      "block\t1\t2\thot\th.c\t12\t12\t-\n"
      "block\t2\t0\tcold\tc.c\t20\t25\t2\n"
      "block\t2\t1\tcold\tc.c\t21\t21\t1\n"
      "work\t1\t10\t76.9231\t10\t76.9231\n"
      "work\t2\t3\t23.0769\t3\t23.0769\n"
      "stat\tmodules\t1\n"
      "stat\tfunctions\t3\n"
      "stat\tfunctions_dropped\t0\n"
      "stat\tblock_entries\t13\n"
      "stat\tunregistered_hits\t0\n"
      "stat\tthreads\t1\n"
      "stat\trecords_invalid\t0\n"
      "stat\tabi_mismatches\t0\n"
      "stat\thits_lost\t0\n";

/* text.c: what osp_text_field / a paragraph made of IN. */
static char *
laid_out (int col, const char *in, int para)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&buf, &len);
  if (para)
    osp_text_line (f, "%s", in);
  else
    osp_text_field (f, col, 8, in);
  fclose (f);
  return buf;
}

static void
test_text (void)
{
  /* Five digits or more grouped, in the helper every section uses;
     four digits as they are; estimates rounded as %.0f. */
  CHECK_STR (OSP_G ((uint64_t) 1234567), "1,234,567");
  CHECK_STR (OSP_G (1024u), "1024");
  CHECK_STR (OSP_G (12345), "12,345");
  CHECK_STR (OSP_G (38608481866.4), "38,608,481,866");
  CHECK_STR (OSP_G (-123456.0), "-123,456");
  CHECK_STR (OSP_G (UINT64_MAX), "18,446,744,073,709,551,615");
  CHECK_STR (OSP_G (1e30), "1e+30");

  /* A row's path after it when it fits, else below, indented 8. */
  char path[121], want[300];
  memset (path, 'p', 120);
  path[120] = '\0';
  char *out = laid_out (30, "main() a.c:1-2 -> f() b.c:3", 0);
  CHECK_STR (out, "  main() a.c:1-2 -> f() b.c:3\n");
  free (out);
  char field[100];
  snprintf (field, sizeof field, "work() %.*s", 70, path);
  out = laid_out (30, field, 0);
  snprintf (want, sizeof want, "\n        work() %.*s\n", 70, path);
  CHECK_STR (out, want);
  free (out);
  /* Prose breaks at its last space that fits, the rest indented by 4. */
  char prose[300];
  snprintf (prose, sizeof prose, "  %.*s %.*s", 90, path, 20, path);
  out = laid_out (0, prose, 1);
  snprintf (want, sizeof want, "  %.*s\n      %.*s\n", 90, path, 20, path);
  CHECK_STR (out, want);
  free (out);
}

static void
test_formats (void)
{
  char *tsv = format (OSP_FORMAT_TSV, 20);
  CHECK_STR (tsv, expected_tsv);
  free (tsv);

  char *text = format (OSP_FORMAT_TEXT, 2);
  char header[256];
  snprintf (header, sizeof header,
            "osp report: mode=blocks pid=%ld modules=1 functions=3 "
            "threads=1 block_entries=13",
            (long) getpid ());
  CHECK (text && strncmp (text, header, strlen (header)) == 0);
  /* the header broken at a space (where depends on the pid's length) */
  CHECK_CONTAINS (text, "functions_dropped=0");
  CHECK_CONTAINS (text, "unregistered_hits=0\n\nhottest functions");
  CHECK_CONTAINS (text, "hottest functions (2 of 3):\n");
  CHECK_CONTAINS (text, "             4               10  76.92%  hot       "
                        "h.c:10\n");
  CHECK_CONTAINS (text, "             2                3  23.08%  cold      "
                        "c.c:20\n");
  CHECK (text && strstr (text, "never") == NULL); /* cut by report_top */
  CHECK_CONTAINS (text, "c.c:20\n  (1 more row: report_top=3 shows them)\n");
  CHECK_CONTAINS (text, "hottest blocks (2 of 4 counted):\n");
  /* Block 1 has no line: the function's first line stands in. */
  CHECK_CONTAINS (text, "             6  46.15%  hot       h.c:10\n"
                        "             4  30.77%  hot       h.c:10\n");
  free (text);

  text = format (OSP_FORMAT_TEXT, 100);
  CHECK_CONTAINS (text, "             2  15.38%  cold      c.c:20-25\n");
  CHECK_CONTAINS (text, "             0                0   0.00%  never     "
                        "n.c:30\n");
  CHECK (text && strstr (text, "h.c:12") == NULL); /* NO_HOOK not ranked */
  free (text);
}

/* report-work.c, format/workshare.h: a subpath row's work is its
   estimate x its blocks' costs, its err95 scaled alike, and its work share
   is of its length class, whose whole is its rows' work over their count
   shares (X / F): the class of length 2 covers 80% of its windows with
   work 400, so it stands for 500, and its work shares add up to 80% like
   its count shares; the lone row of length 4 covers half of its class. */
static void
test_row_work (void)
{
  static struct osp_block blocks[2] = { { .cost = 5 }, { .cost = 1 } };
  static struct osp_fn fn = { .id = 1, .nblocks = 2, .blocks = blocks,
                              .name = "f", .file = "f.c" };
  struct osp_fn *fns[1] = { &fn };
  static const uint32_t ab[4] = { 0, 1, 0, 1 }, bb[2] = { 1, 1 };
  struct osp_subpath subs[3] = {
    { .len = 2, .blocks = ab, .estimate = 60, .err95 = 6, .share = 0.6 },
    { .len = 4, .blocks = ab, .estimate = 10, .err95 = 1, .share = 0.5 },
    { .len = 2, .blocks = bb, .estimate = 20, .err95 = 30, .share = 0.2 },
  };
  struct osp_profile p;
  memset (&p, 0, sizeof p);
  p.mode = OSP_MODE_SUBPATHS;
  p.fns = fns;
  p.nfns = 1;
  p.subpaths.subs = subs;
  p.subpaths.nsubs = 3;
  CHECK (osp_gids_cost (&p, ab, 4) == 12);
  struct osp_work_unit u[32], paths, forest;
  osp_work_units (&p, u, &paths, &forest);
  CHECK (fabs (osp_work_share (&u[1], 360) - 0.72) < 1e-12);
  CHECK (fabs (osp_work_share (&u[1], 40) - 0.08) < 1e-12);
  CHECK (fabs (osp_work_share (&u[2], 120) - 0.5) < 1e-12);
  CHECK (paths.work == 0 && osp_work_share (&paths, 1) == 0);

  struct osp_options o;
  osp_options_defaults (&o);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&buf, &len);
  CHECK_EQ (osp_format_subpaths_tsv (f, &p, &o), 0);
  fclose (f);
  CHECK_CONTAINS (buf, "subpath\t1\t2\t60.000\t6.000\t0\t0.6\t1:0,1:1"
                       "\t360.000\t36.000\t0.72\n");
  CHECK_CONTAINS (buf, "subpath\t2\t4\t10.000\t1.000\t0\t0.5\t"
                       "1:0,1:1,1:0,1:1\t120.000\t12.000\t0.5\n");
  /* too few samples to rank (err95 > estimate): rank "-" */
  CHECK_CONTAINS (buf, "subpath\t-\t2\t20.000\t30.000\t0\t0.2\t1:1,1:1"
                       "\t40.000\t60.000\t0.08\n");
  free (buf);
}

static char *
capture_stderr_of_emit (const struct osp_options *o)
{
  char *dir = osp_test_tmpdir ();
  char path[4200];
  snprintf (path, sizeof path, "%s/err", dir);
  fflush (stderr);
  int saved = dup (2);
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  dup2 (fd, 2);
  close (fd);
  /* The file is this test's stderr now, as if it had been at start-up
     (osp writes only to the fd 2 of start-up). */
  osp_output_init ();
  osp_report_emit (o);
  dup2 (saved, 2);
  close (saved);
  osp_output_init ();
  char *e = osp_test_slurp (path);
  unlink (path);
  rmdir (dir);
  free (dir);
  return e;
}

static void
test_destinations (void)
{
  struct osp_options o;
  osp_options_defaults (&o);
  o.report_format = OSP_FORMAT_TSV;

  /* A file: %p expanded, written whole, no temporary left behind. */
  char *dir = osp_test_tmpdir ();
  char want[4200];
  int n;
  snprintf (want, sizeof want, "report=%s/r.%%p.tsv", dir);
  CHECK_EQ (osp_options_parse (&o, want, stderr), 0);
  char *e = capture_stderr_of_emit (&o);
  CHECK_STR (e, "");
  free (e);
  snprintf (want, sizeof want, "%s/r.%ld.tsv", dir, (long) getpid ());
  char *got = osp_test_slurp (want);
  CHECK_STR (got, expected_tsv);
  free (got);
  DIR *d = opendir (dir);
  n = 0;
  for (struct dirent *de; d && (de = readdir (d));)
    n += de->d_name[0] != '.';
  if (d)
    closedir (d);
  CHECK_EQ (n, 1);
  unlink (want);
  rmdir (dir);
  free (dir);

  /* An unwritable path: one line, no crash. */
  CHECK_EQ (osp_options_parse (&o, "report=/nonexistent-osp-dir/r", stderr),
            0);
  e = capture_stderr_of_emit (&o);
  CHECK_STR (e, "osp: cannot write the report to /nonexistent-osp-dir/r: "
                "No such file or directory\n");
  free (e);

  /* stdout is a pipe nobody reads: the write fails, SIGPIPE must not
     kill the program. */
  fflush (NULL);
  pid_t pid = fork ();
  if (pid == 0)
    {
      int p[2];
      if (pipe (p) != 0)
        _exit (3);
      close (p[0]);
      dup2 (p[1], 1);
      close (p[1]);
      osp_output_init (); /* the pipe is stdout, as if since start-up */
      signal (SIGPIPE, SIG_DFL);
      o.report = OSP_REPORT_STDOUT;
      char *err = capture_stderr_of_emit (&o);
      int ok = err && strcmp (err, "osp: cannot write the report to stdout: "
                                   "Broken pipe\n")
                          == 0;
      _exit (ok ? 0 : 4);
    }
  int status;
  waitpid (pid, &status, 0);
  CHECK (WIFEXITED (status) && WEXITSTATUS (status) == 0);
}

/* The exit path: counts made in atexit handlers are reported; the report
   goes after the program's buffered stdout; the exit status is kept. */
static void
count_in_atexit (void)
{
  osp_test_block (&recs[1], 1);
}

static int
scenario_exit (void)
{
  setup ();
  atexit (count_in_atexit);
  printf ("program output\n"); /* still buffered at exit (a file) */
  return 3;
}

int
main (int argc, char **argv)
{
  /* These tests change the runtime's globals (options, the sampler's
     tables, the path table) under it: the publisher thread, which the
     constructor started, must not take a profile meanwhile (a data race
     ThreadSanitizer reports).  Its segment goes away now. */
  osp_publish_exit (NULL);
  if (argc > 1 && strcmp (argv[1], "exit") == 0)
    return scenario_exit ();

  osp_opts.mode = OSP_MODE_BLOCKS; /* this process has no OSP_OPTIONS */
  setup ();
  test_formats ();
  test_text ();
  test_row_work ();
  test_destinations ();

  char *dir = osp_test_tmpdir ();
  char out[4200];
  snprintf (out, sizeof out, "%s/out", dir);
  CHECK_EQ (osp_test_run ("exit", "mode=blocks:report=stdout:report_format=tsv", out,
                          NULL),
            3);
  char *o = osp_test_slurp (out);
  static const char head[] = "program output\n# osp-report 1 mode=blocks\n";
  CHECK (o && strncmp (o, head, strlen (head)) == 0);
  CHECK_CONTAINS (o, "block\t2\t1\tcold\tc.c\t21\t21\t2\n");
  CHECK_CONTAINS (o, "stat\tblock_entries\t14\n");
  free (o);
  unlink (out);
  rmdir (dir);
  free (dir);
  return osp_test_done ("t_report");
}
