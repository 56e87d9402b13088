/* SPDX-License-Identifier: GPL-3.0-or-later */
/* export-annotate.c - ospview --annotate[=FILE]: the source files as a
 * listing, each line with its share of the hot subpaths and of the
 * Ball-Larus paths.
 *
 * Every file of the view with a covered line (or FILE: the whole path, a
 * suffix at a '/', or the base name, as --dot=NAME@FILE takes it) is
 * listed whole from the source, lines ">>" marked at HOT_MARK of the
 * hottest line's share; when the source is not the file compiled (edited
 * since, another directory, not found, a view without digests: srctext.c)
 * only the covered lines are listed, and the listing says why in one line
 * ("FILE: changed since it was compiled", "FILE: not found in DIRS").
 * Files without a hot line are named at the end.
 *
 * Why it looks like this: a reader wants the hot path next to the code,
 * and a line's number to say how much of the time went there, as a
 * sampling profiler's annotation does.  So a line's share is its part of
 * the rows' work: each row (a hot subpath in the first column, a
 * Ball-Larus path in the second) weighs its estimated executions times,
 * per block it passes, the block's estimated cost (the view's COSTS),
 * and a block's part is split evenly over its statement lines (the
 * plugin records them: BLINES, LINES), never over the comments, blank
 * lines or `#if 0' code between them.  Each column is divided by its
 * rows' whole work, so over all files it sums to at most 100% (blocks
 * without a line count in the whole but on no line).  A view without
 * statement lines (layout minor < 4) spreads a block over its range.
 * Ranges come from the profiled program and may be of any size: each
 * piece is two events (its first line, one past its last) and a sweep
 * over the sorted events gives spans of equal shares, so a range costs
 * only its endpoints, never a walk over its lines.  Source lines are
 * printed as they are (control characters but tabs as '?'): they are
 * the user's own file, not the view's strings.
 */
#define _GNU_SOURCE
#include "export.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HOT_MARK 0.5          /* ">>" at this part of the max */

/* The view's source files (FUNCS' file strings, equal ones merged). */
struct files
{
  const char **name;     /* sorted */
  size_t n;
  uint32_t *of_fn;       /* function index -> file index */
  uint32_t *by_file;     /* function indices, by file then index */
  size_t *start;         /* file i's are by_file[start[i], start[i + 1]) */
};

static int
str_ptr_cmp (const void *a, const void *b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static int
files_build (struct files *fs, const struct view *v)
{
  memset (fs, 0, sizeof *fs);
  fs->name = malloc ((v->nfns ? v->nfns : 1) * sizeof *fs->name);
  fs->of_fn = malloc ((v->nfns ? v->nfns : 1) * sizeof *fs->of_fn);
  fs->by_file = malloc ((v->nfns ? v->nfns : 1) * sizeof *fs->by_file);
  fs->start = calloc (v->nfns + 2, sizeof *fs->start);
  if (!fs->name || !fs->of_fn || !fs->by_file || !fs->start)
    return -1;
  for (uint64_t i = 0; i < v->nfns; i++)
    fs->name[i] = view_str (v, view_fn (v, i)->file);
  ospview_sort (fs->name, v->nfns, sizeof *fs->name, str_ptr_cmp);
  for (uint64_t i = 0; i < v->nfns; i++)
    if (fs->n == 0 || strcmp (fs->name[fs->n - 1], fs->name[i]) != 0)
      fs->name[fs->n++] = fs->name[i];
  for (uint64_t i = 0; i < v->nfns; i++)
    {
      const char *key = view_str (v, view_fn (v, i)->file);
      const char **p = ospview_search (&key, fs->name, fs->n,
                                       sizeof *fs->name, str_ptr_cmp);
      fs->of_fn[i] = (uint32_t) (p - fs->name);
    }
  /* a counting sort: each file's functions, in the view's order */
  for (uint64_t i = 0; i < v->nfns; i++)
    fs->start[fs->of_fn[i] + 2]++;
  for (size_t i = 2; i <= fs->n + 1; i++)
    fs->start[i] += fs->start[i - 1];
  for (uint32_t i = 0; i < v->nfns; i++)
    fs->by_file[fs->start[fs->of_fn[i] + 1]++] = i;
  return 0;
}

/* A change of the line shares: from LINE of FILE on, column COL (0
   subpaths, 1 paths) gains D work per line (or loses it) and C pieces. */
struct ev
{
  uint32_t file, col;
  uint64_t line;
  double d;
  int c;
};

/* Lines [from, to) of a file with the same shares (some row covers them). */
struct span
{
  uint32_t file;
  uint64_t from, to;
  double share[2];
};

static int
ev_cmp (const void *pa, const void *pb)
{
  const struct ev *a = pa, *b = pb;
  if (a->file != b->file)
    return a->file < b->file ? -1 : 1;
  return a->line < b->line ? -1 : a->line > b->line;
}

struct lines
{
  const struct view *v;
  const struct files *fs;
  struct ev *ev;
  size_t nev, evcap;
  struct span *sp;
  size_t nsp, spcap;
  double total[2];      /* each column's whole work */
};

/* Work D on each of the lines [FIRST, LAST] of FILE, column COL. */
static int
lines_add (struct lines *L, uint32_t file, uint32_t col, uint64_t first,
           uint64_t last, double d)
{
  if (ex_grow ((void **) &L->ev, &L->evcap, L->nev + 2, sizeof *L->ev))
    return -1;
  L->ev[L->nev++] = (struct ev) { file, col, first, d, 1 };
  L->ev[L->nev++] = (struct ev) { file, col, last + 1, -d, -1 };
  return 0;
}

/* One row: per block it passes, its executions times the block's cost,
   split over the block's statement lines.  An ex_rows callback. */
static int
lines_row (void *ctx, const struct ex_row *r)
{
  struct lines *L = ctx;
  const struct view *v = L->v;
  uint32_t col = r->is_path ? 1 : 0;
  double w = r->estimate;
  if (!(w > 0) || !isfinite (w))
    return 0;
  for (uint32_t k = 0; k < r->len; k++)
    {
      uint32_t bi = v->ids[r->ids + k];
      const struct osp_vblock *b = view_block (v, bi);
      double work = w * view_cost (v, bi);
      L->total[col] += work;
      if (b->first_line == 0 || !(work > 0))
        continue;
      uint32_t file = L->fs->of_fn[b->fn], n;
      const uint32_t *at = view_block_lines (v, bi, &n);
      if (at == NULL) /* every line of its range */
        {
          uint64_t first = b->first_line, last = ex_last_line (b);
          if (lines_add (L, file, col, first, last,
                         work / (double) (last - first + 1)) != 0)
            return -1;
          continue;
        }
      for (uint32_t j = 0; j < n; j++)
        if (lines_add (L, file, col, at[j], at[j], work / n) != 0)
          return -1;
    }
  return 0;
}

/* The events swept into spans of equal shares. */
static int
lines_sweep (struct lines *L)
{
  ospview_sort (L->ev, L->nev, sizeof *L->ev, ev_cmp);
  double sum[2] = { 0, 0 };
  long cnt[2] = { 0, 0 };
  for (size_t i = 0; i < L->nev;)
    {
      uint32_t file = L->ev[i].file;
      uint64_t line = L->ev[i].line;
      for (; i < L->nev && L->ev[i].file == file && L->ev[i].line == line; i++)
        {
          uint32_t c = L->ev[i].col;
          sum[c] = ospview_sat (sum[c] + L->ev[i].d);
          cnt[c] += L->ev[i].c;
          if (cnt[c] == 0)
            sum[c] = 0; /* exactly: no rounding residue on blank lines */
        }
      if (cnt[0] == 0 && cnt[1] == 0)
        continue;
      /* the span runs to the next event (of this file: a piece always
         closes in its own file) */
      uint64_t to = i < L->nev ? L->ev[i].line : line + 1;
      if (ex_grow ((void **) &L->sp, &L->spcap, L->nsp + 1, sizeof *L->sp))
        return -1;
      struct span sp = { file, line, to, { 0, 0 } };
      for (int c = 0; c < 2; c++)
        if (L->total[c] > 0 && sum[c] > 0)
          sp.share[c] = sum[c] / L->total[c];
      L->sp[L->nsp++] = sp;
    }
  return 0;
}

static void
lines_free (struct lines *L)
{
  free (L->ev);
  free (L->sp);
}

/* A source file read whole (at most SRC_TEXT_MAX bytes, and only the
   file compiled), split into lines. */
struct text
{
  char *buf;
  size_t *start;   /* line i + 1 starts at buf + start[i] */
  size_t n;
};

/* PATH's text, compiled in COMP_DIR, only when it is the file compiled
   (srctext.c): WANT; else WHY. */
static int
text_read (struct text *t, const char *path, const char *comp_dir,
           const struct osp_vfnsrc *want, char *why, size_t whylen)
{
  memset (t, 0, sizeof *t);
  size_t got = 0;
  t->buf = src_find (path, comp_dir, want, &got, why, whylen);
  if (t->buf == NULL)
    return -1;
  size_t n = 1;
  for (size_t i = 0; i < got; i++)
    n += t->buf[i] == '\n';
  t->start = malloc (n * sizeof *t->start);
  if (t->start == NULL)
    {
      free (t->buf);
      t->buf = NULL;
      return -1;
    }
  if (got > 0)
    t->start[t->n++] = 0;
  for (size_t i = 0; i < got; i++)
    if (t->buf[i] == '\n')
      {
        t->buf[i] = '\0';
        if (i + 1 < got)
          t->start[t->n++] = i + 1;
      }
  return 0;
}

static void
text_free (struct text *t)
{
  free (t->buf);
  free (t->start);
}

/* A source line through the one sanitiser (text.c: the file is named by
   the view, so it may be anything), its tabs kept. */
static void
put_src (FILE *o, const char *s)
{
  char *copy = strdup (s);
  if (copy == NULL)
    return;
  char *p = copy;
  for (char *tab; (tab = strchr (p, '\t')) != NULL; p = tab + 1)
    {
      *tab = '\0';
      ex_put (o, p, EX_PLAIN);
      fputc ('\t', o);
    }
  ex_put (o, p, EX_PLAIN);
  free (copy);
}

struct ann
{
  const struct view *v;
  int col;          /* the column the ">>" marks follow (1 paths, else 0) */
  double hot;       /* lines at or above it are marked */
};

static void
put_shares (const struct ann *a, const double *share)
{
  const double *s = share ? share : (const double[2]) { 0, 0 };
  char c[2][32];
  for (int k = 0; k < 2; k++)
    if (s[k] > 0)
      ospview_pct (c[k], sizeof c[k], s[k], 2);
    else
      c[k][0] = '\0';
  printf ("%2s %9s %9s ", s[a->col] > 0 && s[a->col] >= a->hot ? ">>" : "",
          c[0], c[1]);
}

/* File FI's listing: header, then every source line with its shares, or
   only the covered lines when the source cannot be read. */
static void
annotate_file (const struct ann *a, const struct files *fs, uint32_t fi,
               const struct span *sp, size_t nsp)
{
  const struct view *v = a->v;
  const char *path = fs->name[fi];
  printf ("\n==== ");
  ex_put (stdout, *path ? path : "(no file name)", EX_PLAIN);
  printf (" (");
  size_t nfn = fs->start[fi + 1] - fs->start[fi];
  for (size_t i = 0; i < nfn && i < 8; i++)
    {
      fputs (i ? ", " : "", stdout);
      ex_put (stdout, ex_fn_name (v, fs->by_file[fs->start[fi] + i]),
              EX_PLAIN);
      fputs ("()", stdout);
    }
  if (nfn > 8)
    printf (", %zu more", nfn - 8);
  printf (") ====\n");
  struct text t;
  struct osp_vfnsrc want;
  char why[1024];
  src_want (v, fs->by_file + fs->start[fi], nfn, &want);
  int ok = text_read (&t, path,
                      src_comp_dir (v, fs->by_file[fs->start[fi]]), &want,
                      why, sizeof why) == 0;
  if (!ok)
    {
      printf ("(");
      ex_put (stdout, why, EX_PLAIN);
      printf ("; only the covered lines are listed)\n");
    }
  printf ("%2s %9s %9s %6s  %s\n", "", "subpaths", "paths", "line",
          ok ? "source" : "");
  size_t k = 0;
  if (ok)
    {
      for (size_t l = 1; l <= t.n; l++)
        {
          while (k < nsp && sp[k].to <= l)
            k++;
          put_shares (a, k < nsp && sp[k].from <= l ? sp[k].share : NULL);
          printf ("%6zu  ", l);
          put_src (stdout, t.buf + t.start[l - 1]);
          putchar ('\n');
        }
      while (k < nsp && sp[k].to <= t.n + 1)
        k++;
      if (k < nsp)
        printf ("(lines past the end of the file are covered: the source "
                "may have changed since the build)\n");
    }
  for (; k < nsp; k++)
    {
      char lines[64];
      uint64_t from = ok && sp[k].from <= t.n ? t.n + 1 : sp[k].from;
      if (sp[k].to - from > 1)
        snprintf (lines, sizeof lines, "%llu-%llu", (unsigned long long) from,
                  (unsigned long long) (sp[k].to - 1));
      else
        snprintf (lines, sizeof lines, "%llu", (unsigned long long) from);
      put_shares (a, sp[k].share);
      printf ("%6s\n", lines);
    }
  if (ok)
    text_free (&t);
}

int
export_annotate (const struct view *v, const char *want)
{
  struct files fs;
  struct lines L;
  memset (&L, 0, sizeof L);
  int rc = files_build (&fs, v);
  unsigned char *pick = rc == 0 ? calloc (fs.n ? fs.n : 1, 1) : NULL;
  if (pick == NULL)
    rc = -1;
  L.v = v;
  L.fs = &fs;
  if (rc == 0)
    rc = ex_rows (v, lines_row, &L);
  if (rc == 0)
    rc = lines_sweep (&L);
  if (rc != 0)
    {
      fprintf (stderr, "ospview: out of memory\n");
      goto out;
    }
  size_t npick = 0;
  for (int mode = 0; want && mode < 3 && npick == 0; mode++)
    for (size_t i = 0; i < fs.n; i++)
      if (ex_file_match (fs.name[i], want, mode))
        pick[i] = 1, npick++;
  if (want && npick == 0)
    {
      fprintf (stderr, "ospview: --annotate: no source file '%s' in the "
               "view; its files:", want);
      for (size_t i = 0; i < fs.n && i < 5; i++)
        {
          fputs (i ? ", " : " ", stderr);
          ex_put (stderr, fs.name[i], EX_PLAIN);
        }
      fprintf (stderr, "%s\n", fs.n > 5 ? ", ..." : fs.n ? "" : " none");
      rc = 1;
      goto out;
    }
  if (!want) /* all the files with a covered line */
    for (size_t k = 0; k < L.nsp; k++)
      pick[L.sp[k].file] = 1;

  struct ann a = { v, v->npaths > 0 ? 1 : 0, 0 };
  double max = 0;
  for (size_t k = 0; k < L.nsp; k++)
    if (pick[L.sp[k].file] && L.sp[k].share[a.col] > max)
      max = L.sp[k].share[a.col];
  a.hot = max * HOT_MARK;
  printf ("ospview --annotate: ");
  ex_put (stdout, view_str (v, v->run.program), EX_PLAIN);
  printf (", pid %lld, view #%llu\n"
          "subpaths: the line's part of the work of the view's %llu hot "
          "subpaths\n"
          "paths: the line's part of the work of the view's %llu "
          "Ball-Larus paths (of %llu path ends)\n"
          "  (work: estimated executions x block cost, a block's split "
          "over its %s; each column sums to at most 100%% over all "
          "files)\n"
          ">>: at least %.0f%% of the hottest line's %s share "
          "(sampled estimates)\n",
          (long long) v->run.pid, (unsigned long long) v->hdr->seq,
          (unsigned long long) v->nsubpaths, (unsigned long long) v->npaths,
          (unsigned long long) v->run.path_ends,
          v->blines != NULL ? "statement lines"
                            : "line range: this view has no statement lines",
          100 * HOT_MARK, a.col ? "paths" : "subpaths");
  size_t k = 0;
  for (uint32_t fi = 0; fi < fs.n; fi++)
    {
      size_t k0 = k;
      while (k < L.nsp && L.sp[k].file == fi)
        k++;
      if (pick[fi])
        annotate_file (&a, &fs, fi, L.sp + k0, k - k0);
    }
  if (!want)
    {
      size_t cold = 0;
      for (size_t i = 0; i < fs.n; i++)
        if (!pick[i] && cold++ < 10)
          {
            fputs (cold > 1 ? ", " : "\nno hot lines in: ", stdout);
            ex_put (stdout, fs.name[i], EX_PLAIN);
          }
      if (cold > 10)
        printf (" and %zu more files", cold - 10);
      if (cold)
        putchar ('\n');
    }
out:
  free (pick);
  free (fs.name);
  free (fs.of_fn);
  free (fs.by_file);
  free (fs.start);
  lines_free (&L);
  return rc != 0;
}
