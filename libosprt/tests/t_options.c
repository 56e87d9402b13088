/* SPDX-License-Identifier: MIT */
/* t_options.c - OSP_OPTIONS parsing (doc/CONTRACTS.md): every key, the
 * exact messages for bad input, defaults kept after a bad value, and the
 * %p %h %e %% expansion of report paths.  Also checks, by re-running itself,
 * that a program with bad options still runs and exits with its own
 * status. */
#include "testutil.h"

#include <signal.h>

#include "osprt.h"

/* Every key, in the order of options.c's table (the order of the lists in
   the messages). */
#define ALL_KEYS                                                              \
  "mode, report, report_format, report_top, max_functions, verbose, "        \
  "interval, gain, min_length, max_length, length_bias, hotlist_bytes, "    \
  "policy, "                                                                \
  "encoding, seed, exact_max, exact_bytes, report_signal, paths, "          \
  "path_interval, path_gain, path_samples, path_stride, path_period, "     \
  "path_bytes, verify_paths, forest, forest_k, forest_burst, "              \
  "forest_interval, "                                                       \
  "forest_bytes, forest_threads, forest_prune, publish, publish_ms, "       \
  "publish_bytes, snapshot, snapshot_signal, snapshot_bytes, file_mode"

/* Parse SPEC from defaults; return the messages (malloc'ed). */
static char *
parse (struct osp_options *o, const char *spec, int *problems)
{
  char *msg = NULL;
  size_t len = 0;
  FILE *err = open_memstream (&msg, &len);
  osp_options_defaults (o);
  *problems = osp_options_parse (o, spec, err);
  fclose (err);
  return msg;
}

static void
test_defaults (void)
{
  struct osp_options o;
  int n;
  char *msg = parse (&o, NULL, &n);
  CHECK_EQ (n, 0);
  CHECK_STR (msg, "");
  CHECK (o.mode == OSP_MODE_SUBPATHS);
  CHECK (o.report == OSP_REPORT_LINE);
  CHECK (o.report_format == OSP_FORMAT_TEXT);
  CHECK_EQ (o.report_top, 20);
  CHECK_EQ (o.max_functions, 65536);
  CHECK_EQ (o.verbose, 0);
  CHECK_EQ (o.interval, 2000);
  CHECK_EQ (o.gain, 300);
  CHECK_EQ (o.min_length, 2);
  CHECK_EQ (o.max_length, 1024);
  CHECK (o.length_bias == OSP_BIAS_GEOMETRIC);
  CHECK_EQ (o.hotlist_bytes, 65536);
  CHECK (o.policy == HL_SPACE_SAVING);
  CHECK (o.encoding == HL_ENC_SEQUENCE);
  CHECK_EQ (o.seed_set, 0);
  CHECK_EQ (o.exact_max, 32);
  CHECK_EQ (o.exact_bytes, 256u << 20);
  CHECK_EQ (o.report_signal, 0);
  free (msg);
}

static void
test_all_keys (void)
{
  struct osp_options o;
  int n;
  char *msg = parse (&o,
                     "mode=off:report=stdout:report_format=tsv:report_top=7:"
                     "max_functions=16777216:verbose=1",
                     &n);
  CHECK_EQ (n, 0);
  CHECK_STR (msg, "");
  CHECK (o.mode == OSP_MODE_OFF);
  CHECK (o.report == OSP_REPORT_STDOUT);
  CHECK (o.report_format == OSP_FORMAT_TSV);
  CHECK_EQ (o.report_top, 7);
  CHECK_EQ (o.max_functions, 16777216);
  CHECK_EQ (o.verbose, 1);
  free (msg);

  msg = parse (&o, "report=none::mode=blocks:report_format=text:", &n);
  CHECK_EQ (n, 0); /* empty items are ignored */
  CHECK (o.report == OSP_REPORT_NONE);
  free (msg);

  msg = parse (&o, "report=/tmp/r.%p.%h.%%", &n);
  CHECK_EQ (n, 0);
  CHECK (o.report == OSP_REPORT_FILE);
  CHECK_STR (o.report_path, "/tmp/r.%p.%h.%%");
  free (msg);

  /* A relative path is anchored at the start-up directory. */
  char cwd[OSP_PATH_MAX], want[OSP_PATH_MAX + 16];
  CHECK (getcwd (cwd, sizeof cwd) != NULL);
  snprintf (want, sizeof want, "%s/prof.tsv", strcmp (cwd, "/") ? cwd : "");
  msg = parse (&o, "report=prof.tsv", &n);
  if (strchr (cwd, '%') == NULL)
    CHECK_STR (o.report_path, want);
  free (msg);

  /* The last of repeated keys wins. */
  msg = parse (&o, "report_top=5:report_top=9", &n);
  CHECK_EQ (o.report_top, 9);
  free (msg);
}

static void
test_bad_input (void)
{
  struct osp_options o;
  int n;
  char *msg = parse (&o, "mod=off", &n);
  CHECK_EQ (n, 1);
  CHECK_STR (msg, "osp: OSP_OPTIONS: unknown key 'mod' (accepted: "
                  ALL_KEYS ")\n");
  free (msg);

  msg = parse (&o, "mode=fast", &n);
  CHECK_EQ (n, 1);
  CHECK_STR (msg, "osp: OSP_OPTIONS: bad value 'fast' for key 'mode' "
                  "(accepted: subpaths, subpaths-exact, blocks, off)\n");
  CHECK (o.mode == OSP_MODE_SUBPATHS);
  free (msg);

  msg = parse (&o, "verbose", &n);
  CHECK_EQ (n, 1);
  CHECK_CONTAINS (msg, "'verbose' is not key=value (accepted: mode,");
  free (msg);

  /* Out of range or not a plain decimal: the default stays. */
  static const char *const bad_numbers[] = {
    "report_top=0",        "report_top=100001", "report_top=-1",
    "report_top=+5",       "report_top= 5",     "report_top=5x",
    "report_top=",         "report_top=0x10",   "report_top=99999999999999999999",
    "max_functions=0",     "max_functions=16777217",
    "verbose=2",           "verbose=yes",
  };
  for (size_t i = 0; i < sizeof bad_numbers / sizeof bad_numbers[0]; i++)
    {
      msg = parse (&o, bad_numbers[i], &n);
      CHECK_EQ (n, 1);
      CHECK_CONTAINS (msg, "osp: OSP_OPTIONS: bad value");
      CHECK_EQ (o.report_top, 20);
      CHECK_EQ (o.max_functions, 65536);
      CHECK_EQ (o.verbose, 0);
      free (msg);
    }

  msg = parse (&o, "report_top=100000:max_functions=1", &n);
  CHECK_EQ (n, 0);
  CHECK_EQ (o.report_top, 100000);
  CHECK_EQ (o.max_functions, 1);
  free (msg);

  msg = parse (&o, "report=/tmp/x.%d", &n);
  CHECK_EQ (n, 1);
  CHECK_CONTAINS (msg, "bad value '/tmp/x.%d' for key 'report' (accepted: "
                       "line, stderr, stdout, none, or a file path");
  CHECK (o.report == OSP_REPORT_LINE);
  free (msg);

  msg = parse (&o, "report=", &n);
  CHECK_EQ (n, 1);
  free (msg);

  msg = parse (&o, "report_format=json", &n);
  CHECK_STR (msg, "osp: OSP_OPTIONS: bad value 'json' for key "
                  "'report_format' (accepted: text, tsv)\n");
  free (msg);

  /* Problems are independent: good keys around bad ones still apply. */
  msg = parse (&o, "report_top=3:bogus=1:mode=off:report_top=x", &n);
  CHECK_EQ (n, 2);
  CHECK_EQ (o.report_top, 3);
  CHECK (o.mode == OSP_MODE_OFF);
  free (msg);

  /* A huge item does not overflow anything. */
  char *huge = malloc (20000);
  memset (huge, 'a', 19999);
  huge[19999] = '\0';
  memcpy (huge, "report=/", 8);
  msg = parse (&o, huge, &n);
  CHECK_EQ (n, 1);
  CHECK (o.report == OSP_REPORT_LINE);
  free (msg);
  free (huge);
  msg = parse (&o, "report=stderr", &n);
  CHECK_EQ (n, 0);
  CHECK (o.report == OSP_REPORT_STDERR);
  free (msg);
}

/* The prefix forest's keys: defaults, ranges, and the paths=timer rule. */
static void
test_forest (void)
{
  struct osp_options o;
  int n;
  char *msg = parse (&o, NULL, &n);
  CHECK (o.forest == OSP_FOREST_BURST);
  CHECK_EQ (o.forest_k, 8);
  CHECK_EQ (o.forest_burst, 256);
  CHECK_EQ (o.forest_interval, 262144);
  CHECK_EQ (o.forest_bytes, 2u << 20);
  CHECK_EQ (o.forest_threads, 64);
  CHECK_EQ (o.forest_prune, 10);
  free (msg);

  msg = parse (&o, "forest=exhaustive:forest_k=64:forest_burst=16:"
                   "forest_interval=1:forest_bytes=64k:forest_threads=4096:"
                   "forest_prune=0", &n);
  CHECK_EQ (n, 0);
  CHECK (o.forest == OSP_FOREST_EXHAUSTIVE);
  CHECK_EQ (o.forest_k, 64);
  CHECK_EQ (o.forest_burst, 16);
  CHECK_EQ (o.forest_interval, 1);
  CHECK_EQ (o.forest_bytes, 65536);
  CHECK_EQ (o.forest_threads, 4096);
  CHECK_EQ (o.forest_prune, 0);
  free (msg);

  static const char *const bad[] = {
    "forest=some",        "forest_k=0",          "forest_k=65",
    "forest_burst=15",    "forest_burst=1048577", "forest_interval=0",
    "forest_bytes=63k",   "forest_bytes=5g",     "forest_threads=0",
    "forest_threads=4097", "forest_prune=101",   "forest_prune=5%",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      msg = parse (&o, bad[i], &n);
      CHECK_EQ (n, 1);
      CHECK_CONTAINS (msg, "osp: OSP_OPTIONS: bad value");
      CHECK (o.forest == OSP_FOREST_BURST);
      CHECK_EQ (o.forest_k, 8);
      CHECK_EQ (o.forest_burst, 256);
      CHECK_EQ (o.forest_prune, 10);
      free (msg);
    }

  /* paths=timer: the forest is off, silently unless it was asked for. */
  msg = parse (&o, "paths=timer", &n);
  CHECK_EQ (n, 0);
  CHECK_STR (msg, "");
  CHECK (o.forest == OSP_FOREST_OFF);
  free (msg);
  msg = parse (&o, "forest=exhaustive:paths=timer", &n);
  CHECK_EQ (n, 1);
  CHECK_STR (msg, "osp: OSP_OPTIONS: forest=exhaustive cannot be used with "
                  "paths=timer (accepted: forest=off with paths=timer); the "
                  "forest is off\n");
  CHECK (o.forest == OSP_FOREST_OFF);
  free (msg);
  msg = parse (&o, "paths=timer:forest=off", &n);
  CHECK_EQ (n, 0);
  free (msg);
}

/* The live view's keys (publish.c). */
static void
test_publish (void)
{
  struct osp_options o;
  int n;
  char *msg = parse (&o, NULL, &n);
  CHECK_EQ (o.publish, 1);
  CHECK_EQ (o.publish_ms, 500);
  CHECK_EQ (o.publish_bytes, 4u << 20);
  free (msg);

  msg = parse (&o, "publish=off:publish_ms=50:publish_bytes=64k", &n);
  CHECK_EQ (n, 0);
  CHECK_STR (msg, "");
  CHECK_EQ (o.publish, 0);
  CHECK_EQ (o.publish_ms, 50);
  CHECK_EQ (o.publish_bytes, 65536);
  free (msg);
  msg = parse (&o, "publish=on:publish_ms=60000:publish_bytes=1G", &n);
  CHECK_EQ (n, 0);
  CHECK_EQ (o.publish, 1);
  CHECK_EQ (o.publish_ms, 60000);
  CHECK_EQ (o.publish_bytes, 1u << 30);
  free (msg);

  static const char *const bad[] = {
    "publish=yes",        "publish=1",         "publish_ms=49",
    "publish_ms=60001",   "publish_ms=0x100",  "publish_bytes=63k",
    "publish_bytes=1025M", "publish_bytes=2g", "publish_bytes=-1",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      msg = parse (&o, bad[i], &n);
      CHECK_EQ (n, 1);
      CHECK_CONTAINS (msg, "osp: OSP_OPTIONS: bad value");
      CHECK_EQ (o.publish, 1);
      CHECK_EQ (o.publish_ms, 500);
      CHECK_EQ (o.publish_bytes, 4u << 20);
      free (msg);
    }
  msg = parse (&o, "publish_ms=10", &n);
  CHECK_STR (msg, "osp: OSP_OPTIONS: bad value '10' for key 'publish_ms' "
                  "(accepted: milliseconds, an integer 50..60000)\n");
  free (msg);
}

/* file_mode: the mode of report and snapshot files, 0600 by default;
   octal, no execute bits. */
static void
test_file_mode (void)
{
  struct osp_options o;
  int n;
  char *msg = parse (&o, "", &n);
  CHECK_EQ (o.file_mode, 0600);
  free (msg);
  msg = parse (&o, "file_mode=0644", &n);
  CHECK_EQ (n, 0);
  CHECK_EQ (o.file_mode, 0644);
  free (msg);
  msg = parse (&o, "file_mode=640", &n);
  CHECK_EQ (o.file_mode, 0640);
  free (msg);
  static const char *const bad[] = { "0755", "1644", "07777", "abc",
                                     "0x1a4", "",     "06440", "-644" };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    {
      char spec[64];
      snprintf (spec, sizeof spec, "file_mode=%s", bad[i]);
      msg = parse (&o, spec, &n);
      CHECK_EQ (n, 1);
      CHECK_EQ (o.file_mode, 0600);
      CHECK (strstr (msg, "'file_mode'") != NULL);
      free (msg);
    }
}

static void
test_snapshot (void)
{
  struct osp_options o;
  int n;
  /* osp_options_defaults reads no directory: the default template is
     osp_options_from_env's (below and tests/quiet-default.sh). */
  char *msg = parse (&o, NULL, &n);
  CHECK_STR (o.snapshot_path, "");
  CHECK_EQ (o.snapshot_set, 0);
  CHECK_EQ (o.snapshot_signal, 0);
  CHECK_EQ (o.snapshot_bytes, 256u << 20);
  free (msg);

  msg = parse (&o, "snapshot=/tmp/s.%p.%h:snapshot_signal=SIGUSR2:"
                   "snapshot_bytes=64k", &n);
  CHECK_EQ (n, 0);
  CHECK_STR (msg, "");
  CHECK_STR (o.snapshot_path, "/tmp/s.%p.%h");
  CHECK_EQ (o.snapshot_signal, SIGUSR2);
  CHECK_EQ (o.snapshot_bytes, 65536);
  free (msg);
  /* Relative paths are anchored at the start-up directory. */
  msg = parse (&o, "snapshot=rel.ospsnap", &n);
  CHECK_EQ (n, 0);
  CHECK (o.snapshot_path[0] == '/');
  CHECK_CONTAINS (o.snapshot_path, "/rel.ospsnap");
  free (msg);
  msg = parse (&o, "snapshot=/x:snapshot=none", &n);
  CHECK_STR (o.snapshot_path, "");
  CHECK_EQ (o.snapshot_set, 1); /* none was asked: no default either */
  free (msg);
  msg = parse (&o, "snapshot=/p/%e.%p.ospsnap", &n);
  CHECK_EQ (n, 0);
  CHECK_STR (o.snapshot_path, "/p/%e.%p.ospsnap");
  free (msg);

  /* At start-up: the default, %e.ospsnap in the start-up directory. */
  struct osp_options s;
  osp_options_defaults (&s);
  unsetenv ("OSP_OPTIONS");
  osp_options_from_env (&s);
  char cwd[4096], want[4200];
  CHECK (getcwd (cwd, sizeof cwd) != NULL);
  CHECK_STR (s.start_dir, cwd);
  snprintf (want, sizeof want, "%s/%%e.ospsnap", cwd);
  if (strchr (cwd, '%') == NULL)
    CHECK_STR (s.snapshot_path, want);
  CHECK_EQ (s.snapshot_set, 0);
  CHECK (s.report == OSP_REPORT_LINE);
  setenv ("OSP_OPTIONS", "snapshot=none", 1);
  osp_options_defaults (&s);
  osp_options_from_env (&s);
  CHECK_STR (s.snapshot_path, "");
  unsetenv ("OSP_OPTIONS");

  static const char *const bad[] = {
    "snapshot=", "snapshot=/a/%d", "snapshot_signal=KILL",
    "snapshot_signal=9", "snapshot_bytes=63k", "snapshot_bytes=5g",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      msg = parse (&o, bad[i], &n);
      CHECK_EQ (n, 1);
      CHECK_CONTAINS (msg, "osp: OSP_OPTIONS: bad value");
      CHECK_STR (o.snapshot_path, "");
      CHECK_EQ (o.snapshot_signal, 0);
      CHECK_EQ (o.snapshot_bytes, 256u << 20);
      free (msg);
    }
  /* A signal needs a file, and cannot also be the report's. */
  msg = parse (&o, "snapshot_signal=USR2", &n);
  CHECK_EQ (n, 1);
  CHECK_STR (msg, "osp: OSP_OPTIONS: snapshot_signal=USR2 needs snapshot="
                  "FILE (where to write); snapshot_signal is none\n");
  CHECK_EQ (o.snapshot_signal, 0);
  free (msg);
  msg = parse (&o, "snapshot=/s:report_signal=USR1:snapshot_signal=USR1", &n);
  CHECK_EQ (n, 1);
  CHECK_STR (msg, "osp: OSP_OPTIONS: snapshot_signal and report_signal are "
                  "both USR1 (accepted: two different signals); "
                  "snapshot_signal is none\n");
  CHECK_EQ (o.snapshot_signal, 0);
  CHECK_EQ (o.report_signal, SIGUSR1);
  free (msg);
}

static void
test_expand (void)
{
  char out[64];
  CHECK_EQ (osp_expand_path (out, sizeof out, "/r.%p.%h.%%.x", 42, "box"), 0);
  CHECK_STR (out, "/r.42.box.%.x");
  CHECK_EQ (osp_expand_path (out, sizeof out, "plain", 1, "h"), 0);
  CHECK_STR (out, "plain");
  CHECK_EQ (osp_expand_path (out, 10, "/a/%p", 123456, "h"), 0);
  CHECK_STR (out, "/a/123456");
  CHECK_EQ (osp_expand_path (out, 9, "/a/%p", 123456, "h"), -1);
  CHECK_EQ (osp_expand_path (out, 4, "abcd", 1, "h"), -1);
  CHECK_EQ (osp_expand_path (out, 5, "abcd", 1, "h"), 0);
  /* %e: the program's name as started (this test's). */
  CHECK_EQ (osp_expand_path (out, sizeof out, "/d/%e.ospsnap", 1, "h"), 0);
  CHECK_STR (out, "/d/t_options.ospsnap");
  CHECK_STR (osp_program_name (), "t_options");
}

/* doc/osp.md's table of keys against osp_options_table (the descriptor
   table itself): the same keys in the same order, the same defaults, and
   every range the runtime checks ("1..100000", "64K..4G") stated in the
   doc's row, so that neither can change without the other. */
static char *
cell (char **line)
{
  char *c = *line, *bar = strstr (c, " | ");
  if (bar == NULL)
    {
      size_t n = strlen (c);
      while (n > 0 && (c[n - 1] == '|' || c[n - 1] == ' ' || c[n - 1] == '\n'))
        c[--n] = '\0';
      *line = c + strlen (c);
      return c;
    }
  *bar = '\0';
  *line = bar + 3;
  return c;
}

static void
test_doc_table (void)
{
  const char *srcdir = getenv ("srcdir");
  char path[4096];
  snprintf (path, sizeof path, "%s/doc/osp.md", srcdir ? srcdir : ".");
  FILE *doc = fopen (path, "r");
  CHECK (doc != NULL);
  if (doc == NULL)
    return;
  char *gen = NULL;
  size_t genlen = 0;
  FILE *g = open_memstream (&gen, &genlen);
  osp_options_table (g);
  fclose (g);
  char line[8192];
  int in = 0, rows = 0;
  char *next = strchr (gen, '\n');
  next = next ? strchr (next + 1, '\n') : NULL; /* past the heading */
  while (fgets (line, sizeof line, doc))
    {
      if (!in)
        {
          in = strncmp (line, "| key | values | default |", 26) == 0;
          continue;
        }
      if (strncmp (line, "|---", 4) == 0)
        continue;
      if (line[0] != '|')
        break;
      CHECK (next != NULL && next[1] != '\0');
      if (next == NULL || next[1] == '\0')
        break;
      char *want = next + 1;
      next = strchr (want, '\n');
      *next = '\0';
      char *d = line + 2, *w = want + 2;
      char *dkey = cell (&d), *dvals = cell (&d), *ddef = cell (&d);
      char *wkey = cell (&w), *wacc = cell (&w), *wdef = cell (&w);
      CHECK_STR (dkey, wkey);
      CHECK_STR (ddef, wdef);
      /* The range, when the key has one the doc can state. */
      char *dots = strstr (wacc, "..");
      if (dots != NULL && strstr (wacc, "0x hex") == NULL)
        {
          char *a = dots, *b = dots + 2;
          while (a > wacc && a[-1] != ' ')
            a--;
          while (*b && *b != ' ' && *b != ',')
            b++;
          *b = '\0';
          if (strstr (dvals, a) == NULL)
            fprintf (stderr, "doc/osp.md: %s: no range %s\n", dkey, a);
          CHECK (strstr (dvals, a) != NULL);
        }
      rows++;
    }
  fclose (doc);
  CHECK (rows > 30);
  CHECK (next != NULL && next[1] == '\0'); /* no key missing from the doc */
  free (gen);
}

int
main (int argc, char **argv)
{
  /* Idempotent (the constructor ran it); the reference also makes a
     static link pull in runtime.c, which nothing else here uses. */
  osp_init ();
  if (argc > 1 && strcmp (argv[1], "exit7") == 0)
    {
      puts ("still running");
      return 7;
    }
  if (argc > 1 && strcmp (argv[1], "table") == 0)
    {
      osp_options_table (stdout); /* the keys as doc/osp.md shows them */
      return 0;
    }
  test_defaults ();
  test_all_keys ();
  test_bad_input ();
  test_forest ();
  test_publish ();
  test_snapshot ();
  test_file_mode ();
  test_expand ();
  test_doc_table ();

  /* The whole runtime: bad options print one line each, the program runs
     on and its exit status is its own. */
  char *dir = osp_test_tmpdir ();
  char out[4200], err[4200];
  snprintf (out, sizeof out, "%s/out", dir);
  snprintf (err, sizeof err, "%s/err", dir);
  CHECK_EQ (osp_test_run ("exit7", "mod=x:report_top=0:report=none", out, err),
            7);
  char *o = osp_test_slurp (out), *e = osp_test_slurp (err);
  CHECK_STR (o, "still running\n");
  CHECK_STR (e, "osp: OSP_OPTIONS: unknown key 'mod' (accepted: " ALL_KEYS
                ")\n"
                "osp: OSP_OPTIONS: bad value '0' for key 'report_top' "
                "(accepted: an integer 1..100000)\n");
  free (o);
  free (e);
  unlink (out);
  unlink (err);
  rmdir (dir);
  free (dir);
  return osp_test_done ("t_options");
}
