/* report.c - the exit report: a profile taken at one moment, then text or
 * tsv (doc/CONTRACTS.md), then its destination.
 *
 * Taking the profile (registry copy, then counts under the threads lock) is
 * separate from formatting it, so the formats are plain functions of a
 * struct osp_profile that tests can call, and so a thread still running
 * during exit can neither tear a row nor be counted twice.
 *
 * The report is formatted into memory first and written with write(2):
 *   - a file is written to a temporary name in its directory and renamed,
 *     so a reader never sees half a report;
 *   - stdout is flushed first so the report follows the program's output;
 *   - SIGPIPE is blocked while writing, so a closed pipe cannot kill the
 *     program at exit and change its exit status.
 * Any failure is one line on stderr, never more.
 */
#define _GNU_SOURCE
#include "osprt.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- taking a profile ------------------------------------------------ */

int
osp_profile_take (struct osp_profile *p)
{
  memset (p, 0, sizeof *p);
  if (osp_registry_snapshot (&p->fns, &p->nfns, &p->mods, &p->nmods) != 0)
    return -1;
  size_t words = 0;
  for (uint32_t i = 0; i < p->nfns; i++)
    words += p->fns[i]->nblocks;
  p->counts = malloc ((p->nfns ? p->nfns : 1) * sizeof *p->counts);
  p->words = malloc ((words ? words : 1) * sizeof *p->words);
  if (p->counts == NULL || p->words == NULL)
    {
      osp_profile_free (p);
      return -1;
    }
  for (uint32_t i = 0, w = 0; i < p->nfns; w += p->fns[i]->nblocks, i++)
    p->counts[i] = p->words + w;
  osp_blocks_snapshot (p->fns, p->nfns, p->counts);

#define STAT(x) p->x = atomic_load_explicit (&osp_stats.x, memory_order_relaxed)
  STAT (modules);
  STAT (functions);
  STAT (functions_dropped);
  STAT (records_invalid);
  STAT (abi_mismatches);
  STAT (unregistered_hits);
  STAT (hits_lost);
  STAT (threads);
#undef STAT
  p->pid = (long) getpid ();
  return 0;
}

void
osp_profile_free (struct osp_profile *p)
{
  free (p->words);
  free (p->counts);
  free (p->fns);
  free (p->mods);
  memset (p, 0, sizeof *p);
}

/* ---- numbers shared by both formats ---------------------------------- */

static int
counted (const struct osp_fn *f, uint32_t b)
{
  return !(f->blocks[b].flags & OSP_BB_NO_HOOK);
}

/* Entries of all counted blocks of function I. */
static uint64_t
fn_entries (const struct osp_profile *p, uint32_t i)
{
  uint64_t s = 0;
  for (uint32_t b = 0; b < p->fns[i]->nblocks; b++)
    if (counted (p->fns[i], b))
      s += p->counts[i][b];
  return s;
}

static uint64_t
total_entries (const struct osp_profile *p)
{
  uint64_t s = 0;
  for (uint32_t i = 0; i < p->nfns; i++)
    s += fn_entries (p, i);
  return s;
}

static double
share (uint64_t x, uint64_t total)
{
  return total ? 100.0 * (double) x / (double) total : 0.0;
}

/* ---- tsv ------------------------------------------------------------- */

static void
format_tsv (FILE *out, const struct osp_profile *p)
{
  fputs ("# osp-report 1 mode=blocks\n", out);
  for (uint32_t m = 0; m < p->nmods; m++)
    fprintf (out, "module\t%u\t%u\n", m, p->mods[m].nfunctions);
  for (uint32_t i = 0; i < p->nfns; i++)
    {
      const struct osp_fn *f = p->fns[i];
      fprintf (out, "function\t%u\t%s\t%s\t%u\t", f->id, f->name, f->file,
               f->first_line);
      if (counted (f, 0))
        fprintf (out, "%llu", (unsigned long long) p->counts[i][0]);
      else
        fputc ('-', out);
      fprintf (out, "\t%llu\n", (unsigned long long) fn_entries (p, i));
    }
  for (uint32_t i = 0; i < p->nfns; i++)
    {
      const struct osp_fn *f = p->fns[i];
      for (uint32_t b = 0; b < f->nblocks; b++)
        {
          if (counted (f, b) && p->counts[i][b] == 0)
            continue;
          fprintf (out, "block\t%u\t%u\t%s\t%s\t%u\t%u\t", f->id, b, f->name,
                   f->file, f->blocks[b].line_first, f->blocks[b].line_last);
          if (counted (f, b))
            fprintf (out, "%llu\n", (unsigned long long) p->counts[i][b]);
          else
            fputs ("-\n", out);
        }
    }
  const struct
  {
    const char *name;
    uint64_t value;
  } stats[] = {
    { "modules", p->modules },
    { "functions", p->nfns },
    { "functions_dropped", p->functions_dropped },
    { "block_entries", total_entries (p) },
    { "unregistered_hits", p->unregistered_hits },
    { "threads", p->threads },
    { "records_invalid", p->records_invalid },
    { "abi_mismatches", p->abi_mismatches },
    { "hits_lost", p->hits_lost },
  };
  for (size_t s = 0; s < sizeof stats / sizeof stats[0]; s++)
    fprintf (out, "stat\t%s\t%llu\n", stats[s].name,
             (unsigned long long) stats[s].value);
}

/* ---- text ------------------------------------------------------------ */

struct row
{
  uint32_t fn, block; /* index into the profile; block unused for functions */
  uint64_t count;
};

static int
by_count (const void *a, const void *b)
{
  const struct row *x = a, *y = b;
  if (x->count != y->count)
    return x->count < y->count ? 1 : -1;
  if (x->fn != y->fn)
    return x->fn < y->fn ? -1 : 1;
  return x->block < y->block ? -1 : x->block > y->block;
}

/* "file:first-last", falling back to the function's first line. */
static void
location (char *buf, size_t size, const struct osp_fn *f, uint32_t first,
          uint32_t last)
{
  if (first == 0)
    first = last = f->first_line;
  if (first == 0)
    snprintf (buf, size, "%s", f->file);
  else if (last == 0 || last == first)
    snprintf (buf, size, "%s:%u", f->file, first);
  else
    snprintf (buf, size, "%s:%u-%u", f->file, first, last);
}

/* Width of the function-name column over the first N ROWS (capped: a
   C++-length name then just pushes its own line's location right). */
static int
name_width (const struct osp_profile *p, const struct row *rows, size_t n)
{
  size_t w = 8;
  for (size_t r = 0; r < n; r++)
    {
      size_t len = strlen (p->fns[rows[r].fn]->name);
      if (len > w)
        w = len;
    }
  return (int) (w > 40 ? 40 : w);
}

static int
format_text (FILE *out, const struct osp_profile *p,
             const struct osp_options *o)
{
  uint64_t total = total_entries (p);
  fprintf (out,
           "osp report: mode=blocks pid=%ld modules=%llu functions=%u "
           "threads=%llu block_entries=%llu functions_dropped=%llu "
           "unregistered_hits=%llu",
           p->pid, (unsigned long long) p->modules, p->nfns,
           (unsigned long long) p->threads, (unsigned long long) total,
           (unsigned long long) p->functions_dropped,
           (unsigned long long) p->unregistered_hits);
  if (p->records_invalid)
    fprintf (out, " records_invalid=%llu",
             (unsigned long long) p->records_invalid);
  if (p->abi_mismatches)
    fprintf (out, " abi_mismatches=%llu",
             (unsigned long long) p->abi_mismatches);
  if (p->hits_lost)
    fprintf (out, " hits_lost=%llu", (unsigned long long) p->hits_lost);
  fputc ('\n', out);
  if (p->functions_dropped)
    fprintf (out,
             "osp: %llu functions were not profiled: raise max_functions "
             "(now %u)\n",
             (unsigned long long) p->functions_dropped, o->max_functions);

  size_t nblocks = 0;
  for (uint32_t i = 0; i < p->nfns; i++)
    for (uint32_t b = 0; b < p->fns[i]->nblocks; b++)
      nblocks += counted (p->fns[i], b) && p->counts[i][b] != 0;
  struct row *fr = malloc ((p->nfns ? p->nfns : 1) * sizeof *fr);
  struct row *br = malloc ((nblocks ? nblocks : 1) * sizeof *br);
  if (fr == NULL || br == NULL)
    {
      free (fr);
      free (br);
      return -1;
    }
  size_t nb = 0;
  for (uint32_t i = 0; i < p->nfns; i++)
    {
      fr[i] = (struct row) { i, 0, fn_entries (p, i) };
      for (uint32_t b = 0; b < p->fns[i]->nblocks; b++)
        if (counted (p->fns[i], b) && p->counts[i][b] != 0)
          br[nb++] = (struct row) { i, b, p->counts[i][b] };
    }
  qsort (fr, p->nfns, sizeof *fr, by_count);
  qsort (br, nb, sizeof *br, by_count);

  char loc[OSP_PATH_MAX + 64];
  size_t top = p->nfns < o->report_top ? p->nfns : o->report_top;
  int w = name_width (p, fr, top);
  fprintf (out, "\nhottest functions (%zu of %u):\n", top, p->nfns);
  fprintf (out, "%14s %16s %7s  %-*s  %s\n", "calls", "block entries",
           "share", w, "function", "location");
  for (size_t r = 0; r < top; r++)
    {
      const struct osp_fn *f = p->fns[fr[r].fn];
      char calls[32] = "-";
      if (counted (f, 0))
        snprintf (calls, sizeof calls, "%llu",
                  (unsigned long long) p->counts[fr[r].fn][0]);
      location (loc, sizeof loc, f, f->first_line, f->first_line);
      fprintf (out, "%14s %16llu %6.2f%%  %-*s  %s\n", calls,
               (unsigned long long) fr[r].count, share (fr[r].count, total),
               w, f->name, loc);
    }

  top = nb < o->report_top ? nb : o->report_top;
  w = name_width (p, br, top);
  fprintf (out, "\nhottest blocks (%zu of %zu counted):\n", top, nb);
  fprintf (out, "%14s %7s  %-*s  %s\n", "count", "share", w, "function",
           "location");
  for (size_t r = 0; r < top; r++)
    {
      const struct osp_fn *f = p->fns[br[r].fn];
      const struct osp_block *bl = &f->blocks[br[r].block];
      location (loc, sizeof loc, f, bl->line_first, bl->line_last);
      fprintf (out, "%14llu %6.2f%%  %-*s  %s\n",
               (unsigned long long) br[r].count, share (br[r].count, total),
               w, f->name, loc);
    }
  free (fr);
  free (br);
  return 0;
}

int
osp_report_format (FILE *out, const struct osp_profile *p,
                   const struct osp_options *o)
{
  int rc = 0;
  if (o->report_format == OSP_FORMAT_TSV)
    format_tsv (out, p);
  else
    rc = format_text (out, p, o);
  if (fflush (out) != 0 || ferror (out))
    rc = -1;
  return rc;
}

/* ---- destinations ---------------------------------------------------- */

/* write(2) all of BUF to FD with SIGPIPE blocked, discarding a SIGPIPE this
   write raised.  Returns 0 or an errno value. */
static int
write_all (int fd, const char *buf, size_t len)
{
  sigset_t pipe_set, old, pending;
  sigemptyset (&pipe_set);
  sigaddset (&pipe_set, SIGPIPE);
  sigpending (&pending);
  int was_pending = sigismember (&pending, SIGPIPE);
  pthread_sigmask (SIG_BLOCK, &pipe_set, &old);

  int err = 0;
  while (len > 0)
    {
      ssize_t n = write (fd, buf, len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          err = n < 0 ? errno : EIO;
          break;
        }
      buf += n;
      len -= (size_t) n;
    }
  if (err == EPIPE && !was_pending)
    {
      struct timespec zero = { 0, 0 };
      sigtimedwait (&pipe_set, NULL, &zero);
    }
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  return err;
}

/* Write BUF to PATH atomically.  Returns 0 or an errno value. */
static int
write_file (const char *path, const char *buf, size_t len)
{
  char tmp[OSP_PATH_MAX + 16];
  if (snprintf (tmp, sizeof tmp, "%s.XXXXXX", path) >= (int) sizeof tmp)
    return ENAMETOOLONG;
  int fd = mkstemp (tmp);
  if (fd < 0)
    return errno;
  /* mkstemp makes 0600; a report is an ordinary file (0666 & ~umask). */
  mode_t mask = umask (0);
  umask (mask);
  fchmod (fd, 0666 & ~mask);
  int err = write_all (fd, buf, len);
  if (close (fd) != 0 && err == 0)
    err = errno;
  if (err == 0 && rename (tmp, path) != 0)
    err = errno;
  if (err != 0)
    unlink (tmp);
  return err;
}

void
osp_report_emit (const struct osp_options *o)
{
  if (o->report == OSP_REPORT_NONE)
    return;
  char path[OSP_PATH_MAX];
  const char *where = o->report == OSP_REPORT_STDOUT ? "stdout" : "stderr";
  if (o->report == OSP_REPORT_FILE)
    {
      char host[256] = "unknown";
      gethostname (host, sizeof host - 1);
      host[sizeof host - 1] = '\0';
      if (osp_expand_path (path, sizeof path, o->report_path,
                           (long) getpid (), host)
          != 0)
        {
          osp_warn ("osp: cannot write the report: path too long: %s",
                    o->report_path);
          return;
        }
      where = path;
    }

  struct osp_profile p;
  char *buf = NULL;
  size_t len = 0;
  FILE *mem = NULL;
  int ok = osp_profile_take (&p) == 0;
  if (ok)
    {
      mem = open_memstream (&buf, &len);
      ok = mem != NULL && osp_report_format (mem, &p, o) == 0;
      if (mem && fclose (mem) != 0)
        ok = 0;
      osp_profile_free (&p);
    }
  if (!ok)
    {
      osp_warn ("osp: cannot write the report to %s: out of memory", where);
      free (buf);
      return;
    }

  int err;
  if (o->report == OSP_REPORT_FILE)
    err = write_file (path, buf, len);
  else if (o->report == OSP_REPORT_STDOUT)
    {
      fflush (stdout);
      err = write_all (STDOUT_FILENO, buf, len);
    }
  else
    err = write_all (STDERR_FILENO, buf, len);
  free (buf);
  if (err != 0)
    osp_warn ("osp: cannot write the report to %s: %s", where,
              strerror (err));
  else if (osp_opts.verbose && o->report == OSP_REPORT_FILE)
    osp_warn ("osp: report written to %s", path);
}
