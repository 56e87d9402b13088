/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ospview.c - the command line and main of the viewer.
 *
 *   ospview -l                    list the profiled processes of this user
 *   ospview [-p PID]              watch one (without -p: the only one)
 *   ospview --segment FILE        read a segment file by path
 *   ospview FILE.ospsnap          open a snapshot, same screens
 *   ospview -p PID --save FILE    save a live view as a snapshot, exit
 *   -b N, -d SECONDS, --screen=.. batch output instead of the terminal UI
 *   --json, --dot, --annotate, --pprof, --folded  exports (export.c)
 *
 * Why here and nothing else: option parsing and choosing what to attach
 * to are the only things main does; listing, reading, validating and
 * drawing live in segment.c, libosprt/format/viewparse.c, screens.c,
 * batch.c and tui.c.
 * Errors in the command line are one line naming the problem, exit 2;
 * "nothing to attach to" and unreadable segments exit 1.
 */
#define _GNU_SOURCE
#ifdef HAVE_CONFIG_H
#include "osp-config.h"
#endif
#include "ospview.h"

#include <errno.h>
#include <stdarg.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "?"
#endif

#define MAX_LIST 256

static void
usage (FILE *out)
{
  fprintf (out,
"usage: ospview [-p PID | --segment FILE] [options]   watch a profiled process\n"
"       ospview [options] SNAPSHOT                     open a snapshot file\n"
"       ospview [-p PID] --save FILE                   save a snapshot, exit\n"
"       ospview --diff [options] OLD NEW               compare two snapshots\n"
"       ospview --merge OUT SNAPSHOT...                merge snapshots\n"
"       ospview [-p PID | SNAPSHOT] --json | --dot=FN | --annotate[=FILE]\n"
"       ospview [-p PID | SNAPSHOT] --pprof=FILE.pb.gz | --folded[=work]\n"
"       ospview -l                                     list profiled processes\n"
"\n"
"ospview shows the profile of a running program built with osp (gcc\n"
"-fplugin=osp): its hot subpaths, Ball-Larus paths, prefix forest and\n"
"functions, refreshed as the program publishes them.  Without -p it\n"
"attaches to your only profiled process, or lists them if there are several.\n"
"\n"
"  -l, --list           list your profiled processes: pid, state, uptime,\n"
"                       heartbeat age, program\n"
"  -p, --pid PID        attach to process PID\n"
"      --segment FILE   read a segment file (a copy of /dev/shm/osp-UID-PID)\n"
"      --save FILE      write the process's current view as a snapshot FILE\n"
"                       (osp/snapshot.h) and exit; reopen it with ospview FILE\n"
"\n"
"Snapshots (a live process with -p works for the exports too):\n"
"      --diff OLD NEW   compare two snapshots, paths matched by function and\n"
"                       source lines; the UI on a terminal, text with -b 1\n"
"      --fail-above=PP  --diff: exit 3 when a path's share grew by more than\n"
"                       PP percentage points\n"
"      --merge OUT IN.. merge snapshots of one program into OUT; refuses a\n"
"                       snapshot twice or two of one process instance\n"
"      --allow-same-run --merge: merge those anyway (counts that run twice)\n"
"      --keep-going     --merge: skip an input that cannot be merged (one\n"
"                       line naming it and why) and merge the rest\n"
"      --merge-rows=N   --merge: at most N rows per section (default\n"
"                       1048576); rows past it are counted, not merged\n"
"      --json           the view as JSON (doc/SNAPSHOT.md has the schema)\n"
"      --dot=FUNCTION   FUNCTION's control-flow graph in Graphviz DOT, hot\n"
"                       paths heavier and coloured by share\n"
"      --annotate[=FILE] source listing with each line's part of the hot\n"
"                       paths' work (FILE: one source file; default: all)\n"
"      --pprof=FILE     the hot subpaths, paths and forest nodes as a pprof\n"
"                       profile (gzipped profile.proto; - for stdout), for\n"
"                       pprof and Pyroscope, Parca; --screen picks profiles\n"
"      --folded[=work]  the same rows as folded stacks for flame graphs\n"
"                       (flamegraph.pl, speedscope), counting executions or\n"
"                       work\n"
"      --source-dir DIR look for source files in DIR too (repeatable)\n"
"      --source-map OLD=NEW  the tree compiled in OLD is now in NEW\n"
"                       (repeatable; source text is shown only when the\n"
"                       file is the one compiled: same size and SHA-256)\n"
"  -b, --batch N        print the screens as text N times, no terminal UI\n"
"  -d, --delay SECONDS  between refreshes (default 1; batch may use 0)\n"
"      --screen=LIST    subpaths, paths, forest, functions or all (default;\n"
"                       batch: a comma-separated list; UI: the first shown)\n"
"      --top=N          rows per screen in batch mode (default 20, 0: all)\n"
"      --filter=TEXT    only rows whose path or name contains TEXT\n"
"      --sort=KEY       work (default: count x estimated block costs), rank,\n"
"                       execs, estimate, share, length, branches, calls, name\n"
"  -r, --reverse        reverse the sort\n"
"      --recent[=SECONDS] rates over the last SECONDS (default 5) instead of\n"
"                       the cumulative profile: what the program does now\n"
"                       (UI: the key R toggles it)\n"
"      --keys           the keys of the interactive mode\n"
"  -h, --help           this help\n"
"      --version        the version\n");
}

/* Command-line errors: one line, exit 2. */
static void
bad (const char *fmt, const char *a, const char *b)
{
  fprintf (stderr, "ospview: ");
  fprintf (stderr, fmt, a, b);
  fprintf (stderr, " (ospview --help for usage)\n");
  exit (2);
}

static long
parse_long (const char *opt, const char *s, long lo, long hi)
{
  char *end;
  errno = 0;
  long x = strtol (s, &end, 10);
  if (*s == '\0' || *end != '\0' || errno != 0 || x < lo || x > hi)
    {
      char range[64];
      snprintf (range, sizeof range, "a whole number %ld..%ld", lo, hi);
      fprintf (stderr, "ospview: %s: '%s' is not %s (ospview --help for "
               "usage)\n", opt, s, range);
      exit (2);
    }
  return x;
}

static unsigned
parse_screens (const char *s)
{
  unsigned mask = 0;
  char *copy = strdup (s);
  if (copy == NULL)
    {
      fprintf (stderr, "ospview: out of memory\n");
      exit (1);
    }
  char *save = NULL;
  for (char *w = strtok_r (copy, ",", &save); w;
       w = strtok_r (NULL, ",", &save))
    {
      if (strcmp (w, "all") == 0)
        {
          mask |= (1u << SCR_NSCREENS) - 1;
          continue;
        }
      int k = scr_screen_by_name (w);
      if (k < 0)
        bad ("--screen: unknown screen '%s' (subpaths, paths, forest, "
             "functions, all)%s", w, "");
      mask |= 1u << k;
    }
  free (copy);
  if (mask == 0)
    bad ("--screen: no screen named in '%s'%s", s, "");
  return mask;
}

static const char *
state_word (const struct seg_info *i)
{
  if (i->state == OSP_SHM_EXITED)
    return "exited";
  if (!i->alive)
    return "dead";
  return i->state == OSP_SHM_ONLINE ? "running" : "starting";
}

static void
fmt_age (char *buf, size_t n, uint64_t now, uint64_t then)
{
  if (then == 0)
    {
      snprintf (buf, n, "-");
      return;
    }
  double s = now > then ? (double) (now - then) / 1e9 : 0.0;
  if (s < 60)
    snprintf (buf, n, "%.1fs", s);
  else if (s < 3600)
    snprintf (buf, n, "%dm%02ds", (int) s / 60, (int) s % 60);
  else
    snprintf (buf, n, "%dh%02dm", (int) (s / 3600), (int) s / 60 % 60);
}

static void
print_list (const struct seg_info *l, int n)
{
  struct timespec ts;
  clock_gettime (CLOCK_REALTIME, &ts);
  uint64_t now = (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
  printf ("%8s  %-8s %9s %10s  %s\n", "PID", "STATE", "UPTIME", "HEARTBEAT",
          "PROGRAM");
  for (int i = 0; i < n; i++)
    {
      char up[32], hb[32];
      uint64_t end = l[i].alive && l[i].state == OSP_SHM_ONLINE
                         ? now
                         : l[i].heartbeat_ns;
      fmt_age (up, sizeof up, end, l[i].start_ns);
      fmt_age (hb, sizeof hb, now, l[i].heartbeat_ns);
      if (l[i].publishes == 0)
        snprintf (hb, sizeof hb, "-"); /* no view yet: nobody asked */
      printf ("%8ld  %-8s %9s %10s  ", (long) l[i].pid, state_word (&l[i]),
              up, hb);
      ospview_puts (stdout, l[i].program); /* the process's own name */
      putchar ('\n');
    }
}

static int
do_list (void)
{
  static struct seg_info l[MAX_LIST];
  char err[512];
  int n = seg_list (l, MAX_LIST, err, sizeof err);
  if (n < 0)
    {
      ospview_error ("%s", err);
      return 1;
    }
  if (n == 0)
    {
      printf ("no profiled processes of yours (no %s%s%lu-* segments)\n",
              OSP_SHM_DIR, OSP_SHM_PREFIX, (unsigned long) geteuid ());
      return 0;
    }
  print_list (l, n < MAX_LIST ? n : MAX_LIST);
  if (n > MAX_LIST)
    printf ("(%d more not shown)\n", n - MAX_LIST);
  return 0;
}

/* No -p: the only profiled process (the only live one if some are dead). */
static pid_t
pick (void)
{
  static struct seg_info l[MAX_LIST];
  char err[512];
  int n = seg_list (l, MAX_LIST, err, sizeof err);
  if (n < 0)
    {
      ospview_error ("%s", err);
      exit (1);
    }
  if (n == 0)
    {
      fprintf (stderr, "ospview: no profiled process of yours is running "
               "(no %s%s%lu-* segment); build with gcc -fplugin=osp and "
               "start it, or give -p PID\n", OSP_SHM_DIR, OSP_SHM_PREFIX,
               (unsigned long) geteuid ());
      exit (1);
    }
  if (n > MAX_LIST)
    n = MAX_LIST;
  int alive = 0, which = 0;
  for (int i = 0; i < n; i++)
    if (l[i].alive && l[i].state == OSP_SHM_ONLINE)
      {
        alive++;
        which = i;
      }
  if (n == 1)
    return l[0].pid;
  if (alive == 1)
    return l[which].pid;
  print_list (l, n);
  fprintf (stderr, "ospview: %d profiled processes: choose one with -p PID\n",
           n);
  exit (1);
}

/* --save: the newest view as a snapshot; say where, exit status. */
static int
save_now (const struct source *s, const char *path)
{
  void *buf = NULL;
  size_t cap = 0;
  char err[1024];
  long len = source_read (s, &buf, &cap, err, sizeof err);
  struct view v;
  int rc = 1;
  if (len < 0)
    ospview_error ("%s: %s", source_name (s), err);
  else if (len == 0)
    fprintf (stderr, "ospview: %s: no view published yet (try again in a "
             "moment)\n", source_name (s));
  else if (view_parse (&v, buf, (size_t) len, err, sizeof err) != 0)
    ospview_error ("%s: %s", source_name (s), err);
  else if (snap_save (path, buf, (size_t) len, OSP_SNAP_VIEWER, err,
                      sizeof err) != 0)
    ospview_error ("%s", err);
  else
    {
      printf ("saved %s (%ld bytes, view #%llu of pid %lld)\n", path, len,
              (unsigned long long) v.hdr->seq, (long long) v.run.pid);
      rc = 0;
    }
  free (buf);
  return rc;
}

int
main (int argc, char **argv)
{
  enum { OPT_SEGMENT = 256, OPT_SCREEN, OPT_TOP, OPT_FILTER, OPT_SORT,
         OPT_VERSION, OPT_KEYS, OPT_SAVE, OPT_JSON, OPT_DOT, OPT_ANNOTATE,
         OPT_DIFF, OPT_MERGE, OPT_FAIL_ABOVE, OPT_RECENT, OPT_SOURCE_DIR,
         OPT_SOURCE_MAP, OPT_ALLOW_SAME_RUN, OPT_PPROF, OPT_FOLDED,
         OPT_KEEP_GOING, OPT_MERGE_ROWS };
  static const struct option longs[] = {
    { "list", no_argument, 0, 'l' },
    { "pid", required_argument, 0, 'p' },
    { "batch", required_argument, 0, 'b' },
    { "delay", required_argument, 0, 'd' },
    { "segment", required_argument, 0, OPT_SEGMENT },
    { "save", required_argument, 0, OPT_SAVE },
    { "json", no_argument, 0, OPT_JSON },
    { "dot", required_argument, 0, OPT_DOT },
    { "annotate", optional_argument, 0, OPT_ANNOTATE },
    { "pprof", required_argument, 0, OPT_PPROF },
    { "folded", optional_argument, 0, OPT_FOLDED },
    { "diff", no_argument, 0, OPT_DIFF },
    { "merge", required_argument, 0, OPT_MERGE },
    { "fail-above", required_argument, 0, OPT_FAIL_ABOVE },
    { "allow-same-run", no_argument, 0, OPT_ALLOW_SAME_RUN },
    { "keep-going", no_argument, 0, OPT_KEEP_GOING },
    { "merge-rows", required_argument, 0, OPT_MERGE_ROWS },
    { "screen", required_argument, 0, OPT_SCREEN },
    { "top", required_argument, 0, OPT_TOP },
    { "filter", required_argument, 0, OPT_FILTER },
    { "sort", required_argument, 0, OPT_SORT },
    { "reverse", no_argument, 0, 'r' },
    { "recent", optional_argument, 0, OPT_RECENT },
    { "source-dir", required_argument, 0, OPT_SOURCE_DIR },
    { "source-map", required_argument, 0, OPT_SOURCE_MAP },
    { "help", no_argument, 0, 'h' },
    { "version", no_argument, 0, OPT_VERSION },
    { "keys", no_argument, 0, OPT_KEYS },
    { 0, 0, 0, 0 }
  };
  struct ospview_opts o;
  memset (&o, 0, sizeof o);
  o.delay = 1.0;
  o.top = 20;
  o.sort = SORT_WORK;
  int list = 0, screen_given = 0;
  struct merge_opts mo = { .max_rows = MERGE_ROWS_DEFAULT };
  int merge_opt = 0; /* a --merge-only option was given */
  long pid = 0;
  const char *segment = NULL, *save = NULL, *file = NULL;
  /* What to do besides viewing: at most one. */
  enum { ACT_VIEW, ACT_SAVE, ACT_JSON, ACT_DOT, ACT_ANNOTATE, ACT_DIFF,
         ACT_MERGE, ACT_PPROF, ACT_FOLDED } act = ACT_VIEW;
  const char *act_name = NULL, *act_arg = NULL;
  double fail_above = -1;

  opterr = 0; /* our own messages */
  int c;
  while ((c = getopt_long (argc, argv, ":lp:b:d:rh", longs, NULL)) != -1)
    switch (c)
      {
      case 'l':
        list = 1;
        break;
      case 'p':
        pid = parse_long ("-p", optarg, 1, INT_MAX);
        break;
      case 'b':
        o.count = parse_long ("-b", optarg, 1, 1000000000L);
        break;
      case 'd':
        {
          char *end;
          errno = 0;
          double d = strtod (optarg, &end);
          if (*optarg == '\0' || *end != '\0' || errno != 0 || !isfinite (d)
              || d < 0 || d > 86400)
            bad ("-d: '%s' is not a number of seconds 0..86400%s", optarg,
                 "");
          o.delay = d;
        }
        break;
      case OPT_SEGMENT:
        segment = optarg;
        break;
      case OPT_SAVE:
      case OPT_JSON:
      case OPT_DOT:
      case OPT_ANNOTATE:
      case OPT_DIFF:
      case OPT_MERGE:
        {
          static const char *const names[] = {
            [OPT_SAVE - OPT_SAVE] = "--save", [OPT_JSON - OPT_SAVE] = "--json",
            [OPT_DOT - OPT_SAVE] = "--dot",
            [OPT_ANNOTATE - OPT_SAVE] = "--annotate",
            [OPT_DIFF - OPT_SAVE] = "--diff", [OPT_MERGE - OPT_SAVE] = "--merge"
          };
          if (act != ACT_VIEW)
            bad ("%s and %s: give one of them", act_name,
                 names[c - OPT_SAVE]);
          act = c == OPT_SAVE ? ACT_SAVE
                : c == OPT_JSON ? ACT_JSON
                : c == OPT_DOT ? ACT_DOT
                : c == OPT_ANNOTATE ? ACT_ANNOTATE
                : c == OPT_DIFF ? ACT_DIFF
                                : ACT_MERGE;
          act_name = names[c - OPT_SAVE];
          act_arg = optarg;
          if (c == OPT_SAVE)
            save = optarg;
        }
        break;
      case OPT_PPROF:
      case OPT_FOLDED:
        {
          const char *name = c == OPT_PPROF ? "--pprof" : "--folded";
          if (act != ACT_VIEW)
            bad ("%s and %s: give one of them", act_name, name);
          if (c == OPT_PPROF && *optarg == '\0')
            bad ("--pprof needs an output file name (- for stdout)%s%s", "",
                 "");
          if (c == OPT_FOLDED && optarg && strcmp (optarg, "work") != 0
              && strcmp (optarg, "execs") != 0)
            bad ("--folded=%s: say execs (the default) or work%s", optarg,
                 "");
          act = c == OPT_PPROF ? ACT_PPROF : ACT_FOLDED;
          act_name = name;
          act_arg = optarg;
        }
        break;
      case OPT_ALLOW_SAME_RUN:
        mo.allow_same_run = 1;
        merge_opt = 1;
        break;
      case OPT_KEEP_GOING:
        mo.keep_going = 1;
        merge_opt = 1;
        break;
      case OPT_MERGE_ROWS:
        mo.max_rows = (size_t) parse_long ("--merge-rows", optarg, 1,
                                           (long) UINT32_MAX - 1);
        merge_opt = 1;
        break;
      case OPT_FAIL_ABOVE:
        {
          char *end;
          errno = 0;
          double d = strtod (optarg, &end);
          if (*optarg == '\0' || *end != '\0' || errno != 0 || !isfinite (d)
              || d < 0 || d > 100)
            bad ("--fail-above: '%s' is not a number of percentage points "
                 "0..100%s", optarg, "");
          fail_above = d;
        }
        break;
      case OPT_SCREEN:
        o.screens = parse_screens (optarg);
        screen_given = 1;
        break;
      case OPT_TOP:
        o.top = (size_t) parse_long ("--top", optarg, 0, 100000000L);
        break;
      case OPT_FILTER:
        o.filter = optarg;
        break;
      case OPT_SORT:
        {
          int k = scr_sort_by_name (optarg);
          if (k < 0)
            bad ("--sort: unknown key '%s' (work, rank, execs, estimate, "
                 "share, length, branches, calls, name)%s", optarg, "");
          o.sort = (enum scr_sort) k;
        }
        break;
      case 'r':
        o.reverse = 1;
        break;
      case OPT_RECENT:
        o.recent = RECENT_WINDOW;
        if (optarg)
          {
            char *end;
            errno = 0;
            double d = strtod (optarg, &end);
            if (*optarg == '\0' || *end != '\0' || errno != 0
                || !isfinite (d) || d < 0.1 || d > 86400)
              bad ("--recent: '%s' is not a number of seconds 0.1..86400%s",
                   optarg, "");
            o.recent = d;
          }
        break;
      case OPT_SOURCE_DIR:
        if (*optarg == '\0' || src_add_dir (optarg) != 0)
          bad ("--source-dir: '%s' is not a directory name%s", optarg, "");
        break;
      case OPT_SOURCE_MAP:
        if (src_add_map (optarg) != 0)
          bad ("--source-map: '%s' is not OLD=NEW (the recorded directory "
               "OLD is now NEW)%s", optarg, "");
        break;
      case 'h':
        usage (stdout);
        return 0;
      case OPT_VERSION:
        printf ("ospview (osp) %s, segment layout %u.%u, view format %u.%u, "
                "snapshot format %u.%u\n", PACKAGE_VERSION, OSP_SHM_MAJOR,
                OSP_SHM_MINOR, OSP_VIEW_MAJOR, OSP_VIEW_MINOR, OSP_SNAP_MAJOR,
                OSP_SNAP_MINOR);
        return 0;
      case OPT_KEYS:
        return ospview_keys ();
      case ':':
        {
          char opt[3] = { '-', (char) optopt, 0 };
          bad ("%s needs a value%s", optopt ? opt : argv[optind - 1], "");
        }
        break;
      default:
        {
          char opt[3] = { '-', (char) optopt, 0 };
          bad ("unknown option '%s'%s", optopt ? opt : argv[optind - 1], "");
        }
      }
  if (fail_above >= 0 && act != ACT_DIFF)
    bad ("--fail-above applies to --diff only%s%s", "", "");
  if (mo.allow_same_run && act != ACT_MERGE)
    bad ("--allow-same-run applies to --merge only%s%s", "", "");
  if (merge_opt && act != ACT_MERGE)
    bad ("--keep-going and --merge-rows apply to --merge only%s%s", "", "");
  if (act == ACT_DIFF || act == ACT_MERGE)
    {
      if (pid || segment || list || save)
        bad ("%s reads snapshot files: it takes no -p, --segment, -l or "
             "--save%s", act_name, "");
      int n = argc - optind;
      if (act == ACT_DIFF && n != 2)
        bad ("--diff needs two snapshot files, OLD and NEW (got %s)%s",
             n < 2 ? "fewer" : "more", "");
      if (act == ACT_MERGE && n < 1)
        bad ("--merge %s needs the snapshot files to merge%s", act_arg, "");
      if (!screen_given)
        o.screens = (1u << SCR_NSCREENS) - 1;
      return act == ACT_DIFF
                 ? diff_main (argv[optind], argv[optind + 1], &o, fail_above)
                 : merge_main (act_arg, (const char *const *) argv + optind,
                               (size_t) n, &mo);
    }
  if (optind < argc)
    file = argv[optind++];
  if (optind < argc)
    bad ("unexpected argument '%s' (one snapshot file at most)%s",
         argv[optind], "");
  if ((pid != 0) + (segment != NULL) + (file != NULL) > 1)
    bad ("-p, --segment and a snapshot file all name what to read: give "
         "one%s%s", "", "");
  if (list)
    {
      if (pid || segment || file || o.count || save)
        bad ("-l lists processes: it takes no -p, --segment, file, --save "
             "or -b%s%s", "", "");
      return do_list ();
    }
  if (o.recent > 0 && (file || act != ACT_VIEW))
    bad ("--recent compares the views of a live process over time: not "
         "with %s%s", file ? "a snapshot file" : act_name, "");
  if (save && file)
    bad ("--save copies a live process's view; %s is already a snapshot%s",
         file, "");
  if (!screen_given)
    o.screens = (1u << SCR_NSCREENS) - 1;

  struct source s;
  char err[1024];
  int rc;
  if (file)
    rc = source_open_file (&s, file, err, sizeof err);
  else
    {
      if (!pid && !segment)
        pid = pick ();
      rc = source_attach (&s, (pid_t) pid, segment, err, sizeof err);
    }
  if (rc != 0)
    {
      ospview_error ("%s", err);
      return 1;
    }
  if (!file && (act != ACT_VIEW || o.count > 0))
    source_wait_first (&s); /* one shot: give an asked process a moment */
  if (act == ACT_SAVE)
    rc = save_now (&s, save);
  else if (act == ACT_JSON || act == ACT_DOT || act == ACT_ANNOTATE)
    rc = export_main (&s, act == ACT_JSON  ? EXPORT_JSON
                          : act == ACT_DOT ? EXPORT_DOT
                                           : EXPORT_ANNOTATE,
                      act_arg);
  else if (act == ACT_PPROF || act == ACT_FOLDED)
    rc = export_rows_main (&s, act == ACT_PPROF ? EXPORT_PPROF : EXPORT_FOLDED,
                           act_arg, o.screens);
  else if (o.count > 0)
    rc = batch_run (&s, &o);
  else
    rc = ospview_tui (&s, &o);
  source_close (&s);
  return rc;
}
