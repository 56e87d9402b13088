/* SPDX-License-Identifier: GPL-3.0-or-later */
/* export-json.c - ospview --json: the whole view as one JSON document.
 *
 * The schema is in doc/SNAPSHOT.md: format and format_version, the view's
 * header, run (with its times as numbers and ISO 8601), source (snapshot
 * or live), functions with their blocks and edges, subpaths, paths,
 * forest, stats.  A row's blocks are [function index, block number]
 * pairs next to the text the screens show for it.
 *
 * Why it looks like this: a script wants the numbers, so every value the
 * view has is written, nothing rounded (%.17g), in the view's order, and
 * "not known" (OSP_VIEW_NONE, line 0, no time, no EDGES section) is null
 * rather than a number that could be mistaken for a count.  The writer
 * (struct jw) puts objects and arrays one member per line but a row or a
 * block on one line, so the output is greppable and diffs line by line.
 * Strings go through ex_put (export.c): valid UTF-8, escaped.
 */
#define _GNU_SOURCE
#include "export.h"
#include "workshare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define JSON_FORMAT_VERSION 1

/* ---- strings ----------------------------------------------------------- */

/* S as a JSON string, quotes included. */
static void
put_json_str (FILE *f, const char *s)
{
  fputc ('"', f);
  ex_put (f, s, EX_JSON);
  fputc ('"', f);
}

/* NS (CLOCK_REALTIME) as "2026-01-02T03:04:05Z" into BUF; "" for 0. */
static const char *
iso_time (char *buf, size_t n, uint64_t ns)
{
  struct tm tm;
  time_t t = (time_t) (ns / 1000000000u);
  buf[0] = '\0';
  if (ns != 0 && gmtime_r (&t, &tm) != NULL)
    strftime (buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

/* ---- JSON writer ----------------------------------------------------- */

/* Objects and arrays one member per line, except "compact" ones (a row,
   a block) which stay on one line: greppable and diffable. */
#define JW_DEPTH 16
struct jw
{
  FILE *f;
  int depth;
  unsigned char first[JW_DEPTH], compact[JW_DEPTH];
};

static void
jw_sep (struct jw *w, const char *key)
{
  int d = w->depth;
  if (!w->first[d])
    fputs (w->compact[d] ? ", " : ",", w->f);
  w->first[d] = 0;
  if (d > 0 && !w->compact[d])
    fprintf (w->f, "\n%*s", 2 * d, "");
  if (key)
    {
      put_json_str (w->f, key);
      fputs (": ", w->f);
    }
}

static void
j_open (struct jw *w, const char *key, char c, int compact)
{
  jw_sep (w, key);
  fputc (c, w->f);
  if (w->depth + 1 >= JW_DEPTH)
    abort (); /* our own nesting is fixed and shallow */
  w->depth++;
  w->first[w->depth] = 1;
  w->compact[w->depth] = (unsigned char) (compact || w->compact[w->depth - 1]);
}

static void
j_close (struct jw *w, char c)
{
  int members = !w->first[w->depth], compact = w->compact[w->depth];
  w->depth--;
  if (members && !compact)
    fprintf (w->f, "\n%*s", 2 * w->depth, "");
  fputc (c, w->f);
}

static void
j_str (struct jw *w, const char *key, const char *s)
{
  jw_sep (w, key);
  if (s)
    put_json_str (w->f, s);
  else
    fputs ("null", w->f);
}

static void
j_u64 (struct jw *w, const char *key, uint64_t x)
{
  jw_sep (w, key);
  if (ex_known (x))
    fprintf (w->f, "%llu", (unsigned long long) x);
  else
    fputs ("null", w->f);
}

static void
j_i64 (struct jw *w, const char *key, int64_t x)
{
  jw_sep (w, key);
  fprintf (w->f, "%lld", (long long) x);
}

static void
j_f64 (struct jw *w, const char *key, double x)
{
  jw_sep (w, key);
  if (isfinite (x))
    fprintf (w->f, "%.17g", x);
  else
    fputs ("null", w->f);
}

static void
j_bool (struct jw *w, const char *key, int b)
{
  jw_sep (w, key);
  fputs (b ? "true" : "false", w->f);
}

/* A line number: 0 ("no line") is null. */
static void
j_line (struct jw *w, const char *key, uint32_t line)
{
  jw_sep (w, key);
  if (line)
    fprintf (w->f, "%u", line);
  else
    fputs ("null", w->f);
}

/* A CLOCK_REALTIME time as nanoseconds under KEY_NS and as ISO 8601 under
   KEY_TIME; 0 ("not known") is null in both. */
static void
j_time (struct jw *w, const char *key_ns, const char *key_time, uint64_t ns)
{
  char t[64];
  j_u64 (w, key_ns, ns ? ns : OSP_VIEW_NONE);
  j_str (w, key_time, ns ? iso_time (t, sizeof t, ns) : NULL);
}

/* ---- --json ---------------------------------------------------------- */

static const char *const edge_flag_names[]
    = { "back", "abnormal", "eh", "fallthru", "true", "false" };

static void
j_edge_flags (struct jw *w, uint32_t flags)
{
  j_open (w, "flags", '[', 1);
  for (unsigned b = 0; b < 32; b++)
    if (flags >> b & 1)
      {
        char other[16];
        snprintf (other, sizeof other, "bit%u", b);
        j_str (w, NULL, b < sizeof edge_flag_names / sizeof *edge_flag_names
                            ? edge_flag_names[b]
                            : other);
      }
  j_close (w, ']');
}

/* A row's blocks as [function index, block number] pairs, and its text. */
static int
j_blocks (struct jw *w, const struct view *v, uint64_t ids, uint32_t len)
{
  j_open (w, "blocks", '[', 1);
  for (uint32_t k = 0; k < len; k++)
    {
      const struct osp_vblock *b = view_block (v, v->ids[ids + k]);
      j_open (w, NULL, '[', 1);
      j_u64 (w, NULL, b->fn);
      j_u64 (w, NULL, b->block);
      j_close (w, ']');
    }
  j_close (w, ']');
  char *text = scr_path_text (v, ids, len, 1);
  if (text == NULL)
    return -1;
  j_str (w, "text", text);
  free (text);
  return 0;
}

static void
j_run (struct jw *w, const struct source *s, const struct view *v)
{
  const struct osp_vrun *r = &v->run;
  j_open (w, "run", '{', 0);
  j_str (w, "program", view_str (v, r->program));
  j_str (w, "args", view_str (v, r->args));
  j_str (w, "options", view_str (v, r->options));
  j_i64 (w, "pid", r->pid);
  j_u64 (w, "instance_id", r->instance_id);
  j_time (w, "start_ns", "start_time", r->start_ns);
  j_time (w, "taken_ns", "taken_time", v->hdr->time_ns);
  if (r->start_ns && v->hdr->time_ns >= r->start_ns)
    j_f64 (w, "seconds", (double) (v->hdr->time_ns - r->start_ns) / 1e9);
  else
    j_str (w, "seconds", NULL);
  j_str (w, "mode", view_str (v, r->mode));
  j_str (w, "paths", view_str (v, r->paths));
  j_str (w, "forest", view_str (v, r->forest));
  j_u64 (w, "forest_k", r->forest_k);
  j_bool (w, "exited", r->exited != 0);
  j_u64 (w, "blocks_seen", r->blocks_seen);
  j_u64 (w, "path_ends", r->path_ends);
  j_f64 (w, "path_scale", r->path_scale);
  j_f64 (w, "forest_scale", r->forest_scale);
  j_close (w, '}');

  j_open (w, "source", '{', 0);
  j_str (w, "kind", s->kind == SRC_FILE ? "snapshot" : "live");
  j_str (w, "path", source_name (s));
  if (s->kind == SRC_FILE)
    {
      static const char *const fl[] = { "merged", "at_exit", "signal",
                                        "viewer" };
      j_open (w, "flags", '[', 1);
      for (unsigned b = 0; b < 4; b++)
        if (s->snap.hdr.flags >> b & 1)
          j_str (w, NULL, fl[b]);
      j_close (w, ']');
      j_u64 (w, "saved_ns", s->snap.hdr.saved_ns);
      char wr[sizeof s->snap.hdr.writer + 1];
      memcpy (wr, s->snap.hdr.writer, sizeof s->snap.hdr.writer);
      wr[sizeof s->snap.hdr.writer] = '\0';
      j_str (w, "writer", wr);
    }
  else
    {
      struct scr_live l;
      source_live (s, &l);
      j_bool (w, "alive", l.alive);
      j_bool (w, "exited", scr_exited (&l) != NULL);
    }
  j_close (w, '}');
}

/* Function I's self work and executions (FNWORK, the runtime's figures
   over the whole run) and their shares of the sums TOT (work, execs) over
   all functions: each adds up to 1, as the functions screen's.  null
   without FNWORK. */
static void
j_fnwork (struct jw *w, const struct view *v, uint64_t i, const double *tot)
{
  const struct osp_vfnwork *fw = view_fnwork (v, i);
  if (fw == NULL)
    {
      j_str (w, "work", NULL);
      j_str (w, "work_share", NULL);
      j_str (w, "execs", NULL);
      j_str (w, "execs_share", NULL);
      return;
    }
  j_f64 (w, "work", fw->work);
  j_f64 (w, "work_share", tot[0] > 0 ? fw->work / tot[0] : 0);
  j_f64 (w, "execs", fw->execs);
  j_f64 (w, "execs_share", tot[1] > 0 ? fw->execs / tot[1] : 0);
}

static void
j_functions (struct jw *w, const struct view *v)
{
  int have_edges = v->edges != NULL;
  double tot[2] = { 0, 0 };
  for (uint64_t i = 0; i < v->nfnwork; i++)
    {
      tot[0] += view_fnwork (v, i)->work;
      tot[1] += view_fnwork (v, i)->execs;
    }
  j_open (w, "functions", '[', 0);
  for (uint64_t i = 0; i < v->nfns; i++)
    {
      const struct osp_vfn *f = view_fn (v, i);
      j_open (w, NULL, '{', 0);
      j_u64 (w, "index", i);
      j_u64 (w, "id", f->id);
      j_str (w, "name", view_str (v, f->name));
      j_str (w, "file", view_str (v, f->file));
      const struct osp_vfnsrc *src = view_fnsrc (v, i);
      if (src != NULL)
        j_str (w, "comp_dir", view_str (v, src->comp_dir));
      if (src != NULL && (src->flags & OSP_VSRC_DIGEST))
        {
          char hex[2 * sizeof src->sha256 + 1];
          for (size_t k = 0; k < sizeof src->sha256; k++)
            snprintf (hex + 2 * k, 3, "%02x", src->sha256[k]);
          j_u64 (w, "file_size", src->size);
          j_str (w, "file_sha256", hex);
        }
      j_line (w, "first_line", f->first_line);
      j_u64 (w, "calls", f->calls);
      j_fnwork (w, v, i, tot);
      j_open (w, "blocks", '[', 0);
      for (uint32_t b = 0; b < f->nblocks; b++)
        {
          const struct osp_vblock *bl = view_block (v, f->block0 + b);
          j_open (w, NULL, '{', 1);
          j_u64 (w, "block", bl->block);
          if (bl->first_line)
            {
              j_open (w, "lines", '[', 1);
              j_u64 (w, NULL, bl->first_line);
              j_u64 (w, NULL, ex_last_line (bl));
              j_close (w, ']');
            }
          else
            j_str (w, "lines", NULL);
          /* the lines of its statements (a view of layout minor 4 on);
             a run longer than any the plugin writes as one is null */
          uint32_t nl;
          const uint32_t *sl = view_block_lines (v, f->block0 + b, &nl);
          uint64_t run = bl->first_line ? ex_last_line (bl) - bl->first_line
                                              + 1
                                        : 0;
          if (v->blines == NULL || (sl == NULL && run > 4096))
            j_str (w, "stmt_lines", NULL);
          else
            {
              j_open (w, "stmt_lines", '[', 1);
              for (uint64_t k = 0; k < (sl ? nl : run); k++)
                j_u64 (w, NULL, sl ? sl[k] : bl->first_line + k);
              j_close (w, ']');
            }
          j_u64 (w, "count", bl->count);
          j_close (w, '}');
        }
      j_close (w, ']');
      if (!have_edges)
        j_str (w, "edges", NULL);
      else
        {
          j_open (w, "edges", '[', 0);
          uint64_t end = (uint64_t) f->block0 + f->nblocks;
          for (uint64_t e = ex_edge_first (v, f->block0);
               e < v->nedges && view_edge (v, e)->from < end; e++)
            {
              const struct osp_vedge *ed = view_edge (v, e);
              j_open (w, NULL, '{', 1);
              j_u64 (w, "from", view_block (v, ed->from)->block);
              if (ed->to == OSP_VIEW_EXIT)
                j_str (w, "to", "exit");
              else
                j_u64 (w, "to", view_block (v, ed->to)->block);
              j_edge_flags (w, ed->flags);
              j_close (w, '}');
            }
          j_close (w, ']');
        }
      j_close (w, '}');
    }
  j_close (w, ']');
}

/* A row's work (ESTIMATE x COST, COST its blocks' summed cost), its 95%
   half-width and its share of U (libosprt/format/workshare.h, the
   runtime's rule: of the subpaths of its length, of all path ends); null
   in a view without COSTS, whose blocks have no cost. */
static void
j_work (struct jw *w, const struct view *v, double estimate, double err95,
        double cost, const struct osp_work_unit *u)
{
  if (v->costs == NULL)
    {
      j_str (w, "work", NULL);
      j_str (w, "work_err95", NULL);
      j_str (w, "work_share", NULL);
      return;
    }
  j_f64 (w, "work", estimate * cost);
  j_f64 (w, "work_err95", err95 * cost);
  j_f64 (w, "work_share", osp_work_share (u, estimate * cost));
}

static int
j_rows (struct jw *w, const struct view *v)
{
  int rc = 0;
  /* The units of the work shares: the subpaths of each length class,
     every path row, the forest's roots (whose shares are of all path
     ends counted). */
  struct osp_work_unit sub[32], paths = { 0, 0 }, forest = { 0, 0 };
  memset (sub, 0, sizeof sub);
  for (uint64_t i = 0; i < v->nsubpaths; i++)
    {
      const struct osp_vsubpath *s = view_subpath (v, i);
      osp_work_unit_add (&sub[osp_work_class (s->len)],
                         s->estimate * view_run_cost (v, s->ids, s->len),
                         s->share);
    }
  for (uint64_t i = 0; i < v->npaths; i++)
    {
      const struct osp_vpath *p = view_path (v, i);
      osp_work_unit_add (&paths,
                         p->estimate * view_run_cost (v, p->ids, p->len),
                         p->share);
    }
  for (uint64_t i = 0; i < v->nforest; i++)
    {
      const struct osp_vforest *n = view_forest (v, i);
      if (n->parent == OSP_VIEW_NO_PARENT)
        osp_work_unit_add (&forest,
                           n->estimate * view_run_cost (v, n->ids, n->len),
                           n->share);
    }
  j_open (w, "subpaths", '[', 0);
  for (uint64_t i = 0; i < v->nsubpaths && rc == 0; i++)
    {
      const struct osp_vsubpath *s = view_subpath (v, i);
      j_open (w, NULL, '{', 1);
      j_u64 (w, "rank", s->rank);
      j_u64 (w, "count", s->count);
      j_f64 (w, "estimate", s->estimate);
      j_f64 (w, "err95", s->err95);
      j_f64 (w, "share", s->share);
      /* false: too few samples to rank (the runtime's flag, shares.c;
         views before minor 4: the same rule, viewparse.h) */
      j_bool (w, "ranked", view_subpath_ranked (v, i));
      j_work (w, v, s->estimate, s->err95, view_run_cost (v, s->ids, s->len),
              &sub[osp_work_class (s->len)]);
      rc = j_blocks (w, v, s->ids, s->len);
      j_close (w, '}');
    }
  j_close (w, ']');
  j_open (w, "paths", '[', 0);
  for (uint64_t i = 0; i < v->npaths && rc == 0; i++)
    {
      const struct osp_vpath *p = view_path (v, i);
      j_open (w, NULL, '{', 1);
      j_u64 (w, "rank", p->rank);
      j_u64 (w, "function", p->fn);
      j_u64 (w, "id", p->id);
      j_u64 (w, "samples", p->samples);
      j_f64 (w, "estimate", p->estimate);
      j_f64 (w, "err95", p->err95);
      j_f64 (w, "share", p->share);
      j_u64 (w, "branches", p->branches);
      /* false: too few samples to rank (the runtime's flag, the tsv
         report's rank `-'; views before minor 5: viewparse.h's rule) */
      j_bool (w, "ranked", view_path_ranked (v, i));
      j_work (w, v, p->estimate, p->err95, view_run_cost (v, p->ids, p->len),
              &paths);
      rc = j_blocks (w, v, p->ids, p->len);
      j_close (w, '}');
    }
  j_close (w, ']');
  j_open (w, "forest", '[', 0);
  for (uint64_t i = 0; i < v->nforest && rc == 0; i++)
    {
      const struct osp_vforest *n = view_forest (v, i);
      j_open (w, NULL, '{', 1);
      if (n->parent == OSP_VIEW_NO_PARENT)
        j_str (w, "parent", NULL);
      else
        j_u64 (w, "parent", n->parent);
      j_u64 (w, "depth", n->depth);
      j_u64 (w, "function", n->fn);
      j_u64 (w, "id", n->id);
      j_u64 (w, "count", n->count);
      j_f64 (w, "estimate", n->estimate);
      j_f64 (w, "err95", n->err95);
      j_f64 (w, "share", n->share);
      /* false: too few samples to rank; in the tree's order all the same
         (the runtime's flag, its tsv field; views before minor 5: the
         same rule, viewparse.h) */
      j_bool (w, "ranked", view_forest_ranked (v, i));
      j_work (w, v, n->estimate, n->err95, view_run_cost (v, n->ids, n->len),
              &forest);
      rc = j_blocks (w, v, n->ids, n->len);
      j_close (w, '}');
    }
  j_close (w, ']');
  return rc;
}

static void
j_stats (struct jw *w, const struct view *v)
{
  j_open (w, "stats", '{', 0);
  for (uint64_t i = 0; i < v->nstats; i++)
    {
      const struct osp_vstat *s = view_stat (v, i);
      const char *name = view_str (v, s->name);
      uint64_t k = 0; /* a repeated name: the first one (JSON keys) */
      while (k < i && strcmp (view_str (v, view_stat (v, k)->name), name))
        k++;
      if (k < i)
        continue;
      double d;
      if (s->kind == OSP_VSTAT_U64)
        {
          j_u64 (w, name, s->value);
        }
      else if (s->kind == OSP_VSTAT_F64)
        {
          memcpy (&d, &s->value, sizeof d);
          j_f64 (w, name, d);
        }
      else if (s->kind == OSP_VSTAT_STR && s->value < v->nstrings)
        j_str (w, name, view_str (v, (uint32_t) s->value));
      else
        j_str (w, name, NULL);
    }
  j_close (w, '}');
}

int
export_json (const struct source *s, const struct view *v)
{
  struct jw w;
  memset (&w, 0, sizeof w);
  w.f = stdout;
  w.first[0] = 1;
  j_open (&w, NULL, '{', 0);
  j_str (&w, "format", "ospview-json");
  j_u64 (&w, "format_version", JSON_FORMAT_VERSION);
  j_open (&w, "view", '{', 1);
  j_u64 (&w, "major", v->hdr->major);
  j_u64 (&w, "minor", v->hdr->minor);
  j_u64 (&w, "seq", v->hdr->seq);
  j_bool (&w, "has_edges", v->edges != NULL);
  j_close (&w, '}');
  j_run (&w, s, v);
  j_functions (&w, v);
  int rc = j_rows (&w, v);
  j_stats (&w, v);
  j_close (&w, '}');
  fputc ('\n', stdout);
  if (rc != 0)
    fprintf (stderr, "ospview: out of memory\n");
  return rc ? 1 : 0;
}
