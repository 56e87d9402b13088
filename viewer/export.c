/* export.c - ospview --json, --dot=FUNCTION, --annotate[=FILE]: the
 * newest view of a live process or a snapshot file, for other tools.
 *
 *   --json       the whole view as one JSON document (schema in
 *                doc/SNAPSHOT.md): run, functions with blocks and edges,
 *                subpaths, paths, forest, stats
 *   --dot=FN     FN's control-flow graph in Graphviz DOT, the edges and
 *                blocks of its hot paths wider and warmer by share
 *   --annotate   the source files as a listing, each line with its share
 *                of the hot subpaths and of the Ball-Larus paths
 *
 * Why it looks like this: the screens answer "what is hot" in the
 * profile's own terms (paths as block lists); these exports answer the
 * next questions in other tools' terms - a script wants the numbers
 * (JSON, every value the view has, "not known" as null, nothing
 * rounded), a reader wants to see the hot path on the function's graph
 * (DOT), or next to the code (annotate).  All three read one view the
 * way batch.c does (source_read, view_parse: a refused view is one
 * stderr line, exit 1) and trust nothing else: names and source lines
 * come from the profiled program, so strings are written as valid UTF-8
 * (bad bytes become U+FFFD) and escaped for JSON and DOT, and line ranges
 * of any size cost only their endpoints (annotate sweeps interval
 * endpoints instead of walking lines).  Output is deterministic: the
 * view's order, or names, never addresses or hash order.
 *
 * Shares: a subpath's share is a fraction of the blocks seen, a
 * Ball-Larus path's a fraction of all path ends (run.path_ends), a forest
 * node's a fraction of its parent's; all are sampled estimates unless the
 * run says exact.  An edge's, block's or line's share here is the sum of
 * the shares of the rows that pass it, each row counted once (so
 * overlapping subpaths may sum past 100%).
 */
#define _GNU_SOURCE
#include "ospview.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "osp/abi.h"

#define JSON_FORMAT_VERSION 1
#define SRC_MAX (16u << 20)   /* larger source files are not read */
#define HOT_MARK 0.5          /* annotate: ">>" at this part of the max */
#define DOT_LABEL_MIN 0.01    /* dot: edges with a share >= 1% labelled */
#define DOT_SUGGEST 5         /* dot: names suggested for an unknown one */

/* ---- strings: valid UTF-8 out, whatever came in ---------------------- */

/* The length of the valid UTF-8 sequence at P (NUL-terminated), 0 if the
   bytes there are not one. */
static size_t
utf8_seq (const unsigned char *p)
{
  unsigned c = p[0];
  if (c < 0x80)
    return 1;
  size_t n;
  unsigned lo = 0x80, hi = 0xbf;
  if (c >= 0xc2 && c <= 0xdf)
    n = 2;
  else if (c >= 0xe0 && c <= 0xef)
    {
      n = 3;
      if (c == 0xe0)
        lo = 0xa0;
      else if (c == 0xed)
        hi = 0x9f;
    }
  else if (c >= 0xf0 && c <= 0xf4)
    {
      n = 4;
      if (c == 0xf0)
        lo = 0x90;
      else if (c == 0xf4)
        hi = 0x8f;
    }
  else
    return 0;
  if (p[1] < lo || p[1] > hi)
    return 0;
  for (size_t i = 2; i < n; i++)
    if (p[i] < 0x80 || p[i] > 0xbf)
      return 0;
  return n;
}

/* S as a JSON string, quotes included. */
static void
put_json_str (FILE *f, const char *s)
{
  const unsigned char *p = (const unsigned char *) s;
  fputc ('"', f);
  while (*p)
    {
      size_t n = utf8_seq (p);
      if (n == 0)
        {
          fputs ("\\ufffd", f);
          p++;
          continue;
        }
      if (*p == '"' || *p == '\\')
        fprintf (f, "\\%c", *p);
      else if (*p == '\n')
        fputs ("\\n", f);
      else if (*p == '\t')
        fputs ("\\t", f);
      else if (*p < 0x20 || *p == 0x7f)
        fprintf (f, "\\u%04x", *p);
      else
        fwrite (p, 1, n, f);
      p += n;
    }
  fputc ('"', f);
}

/* S inside a DOT double-quoted string: quotes and backslashes escaped,
   control characters as '?', bad bytes as U+FFFD. */
static void
put_dot_str (FILE *f, const char *s)
{
  const unsigned char *p = (const unsigned char *) s;
  while (*p)
    {
      size_t n = utf8_seq (p);
      if (n == 0)
        {
          fputs ("\xef\xbf\xbd", f);
          p++;
          continue;
        }
      if (*p == '"' || *p == '\\')
        fprintf (f, "\\%c", *p);
      else if (*p < 0x20 || *p == 0x7f)
        fputc ('?', f);
      else
        fwrite (p, 1, n, f);
      p += n;
    }
}

/* S as plain text (messages, headers): control characters as '?', bad
   bytes as U+FFFD. */
static void
put_plain (FILE *f, const char *s)
{
  const unsigned char *p = (const unsigned char *) s;
  while (*p)
    {
      size_t n = utf8_seq (p);
      if (n == 0)
        fputs ("\xef\xbf\xbd", f);
      else if (*p < 0x20 || *p == 0x7f)
        fputc ('?', f);
      else
        fwrite (p, 1, n, f);
      p += n ? n : 1;
    }
}

static const char *
base_name (const char *path)
{
  const char *b = strrchr (path, '/');
  return b && b[1] ? b + 1 : path;
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

/* ---- reading the view ------------------------------------------------ */

struct loaded
{
  void *buf;
  size_t cap;
  struct view v;
};

/* The source's newest view into L.  0, or -1 after one stderr line. */
static int
load (const struct source *s, struct loaded *l)
{
  char err[1024];
  long len = source_read (s, &l->buf, &l->cap, err, sizeof err);
  const char *name = source_name (s);
  if (len < 0) /* a segment's messages start with its path already */
    fprintf (stderr, "ospview: %s%s%s\n",
             strncmp (err, name, strlen (name)) == 0 ? "" : name,
             strncmp (err, name, strlen (name)) == 0 ? "" : ": ", err);
  else if (len == 0)
    fprintf (stderr, "ospview: %s: no view published yet (try again in a "
             "moment)\n", name);
  else if (view_parse (&l->v, l->buf, (size_t) len, err, sizeof err) != 0)
    fprintf (stderr, "ospview: %s: %s\n", name, err);
  else
    return 0;
  return -1;
}

/* "Not known" counts are OSP_VIEW_NONE. */
static int
known (uint64_t x)
{
  return x != OSP_VIEW_NONE;
}

static const char *
fn_name (const struct view *v, uint32_t fi)
{
  return view_str (v, view_fn (v, fi)->name);
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
  if (known (x))
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
  char t[64];
  j_open (w, "run", '{', 0);
  j_str (w, "program", view_str (v, r->program));
  j_str (w, "args", view_str (v, r->args));
  j_str (w, "options", view_str (v, r->options));
  j_i64 (w, "pid", r->pid);
  j_u64 (w, "instance_id", r->instance_id);
  j_u64 (w, "start_ns", r->start_ns ? r->start_ns : OSP_VIEW_NONE);
  j_str (w, "start_time", r->start_ns ? iso_time (t, sizeof t, r->start_ns)
                                      : NULL);
  j_u64 (w, "taken_ns", v->hdr->time_ns ? v->hdr->time_ns : OSP_VIEW_NONE);
  j_str (w, "taken_time", v->hdr->time_ns
                              ? iso_time (t, sizeof t, v->hdr->time_ns)
                              : NULL);
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

/* The first edge out of block index B or later (EDGES are grouped by
   source block, in BLOCKS order). */
static uint64_t
edge_first (const struct view *v, uint32_t b)
{
  uint64_t lo = 0, hi = v->nedges;
  while (lo < hi)
    {
      uint64_t mid = lo + (hi - lo) / 2;
      if (view_edge (v, mid)->from < b)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
j_functions (struct jw *w, const struct view *v)
{
  int have_edges = v->edges != NULL;
  j_open (w, "functions", '[', 0);
  for (uint64_t i = 0; i < v->nfns; i++)
    {
      const struct osp_vfn *f = view_fn (v, i);
      j_open (w, NULL, '{', 0);
      j_u64 (w, "index", i);
      j_u64 (w, "id", f->id);
      j_str (w, "name", view_str (v, f->name));
      j_str (w, "file", view_str (v, f->file));
      j_line (w, "first_line", f->first_line);
      j_u64 (w, "calls", f->calls);
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
              j_u64 (w, NULL, bl->last_line >= bl->first_line
                                  ? bl->last_line
                                  : bl->first_line);
              j_close (w, ']');
            }
          else
            j_str (w, "lines", NULL);
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
          for (uint64_t e = edge_first (v, f->block0);
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

static int
j_rows (struct jw *w, const struct view *v)
{
  int rc = 0;
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

static int
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

/* ---- --dot: one function's graph with the paths' shares --------------- */

#define ENTRY_NODE (OSP_VIEW_EXIT - 1) /* "from" of the edge ENTRY -> b0 */

struct dedge
{
  uint32_t from, to;   /* BLOCKS indices, OSP_VIEW_EXIT, ENTRY_NODE */
  uint32_t flags;
  int cfg;             /* from EDGES (else only seen in rows) */
  double path, sub;    /* summed shares */
  uint64_t stamp;      /* the last row counted (row + 1) */
};

struct graph
{
  const struct view *v;
  uint32_t fi, block0, nblocks;
  struct dedge *e;
  size_t n, cap;
  double *bpath, *bsub;      /* per block of the function */
  uint64_t *bstamp;
};

static int
dedge_cmp (const void *pa, const void *pb)
{
  const struct dedge *a = pa, *b = pb;
  if (a->from != b->from)
    return a->from < b->from ? -1 : 1;
  return a->to < b->to ? -1 : a->to > b->to;
}

static int
g_add (struct graph *g, uint32_t from, uint32_t to, uint32_t flags, int cfg)
{
  if (g->n == g->cap)
    {
      size_t ncap = g->cap ? 2 * g->cap : 32;
      struct dedge *ne = realloc (g->e, ncap * sizeof *ne);
      if (ne == NULL)
        return -1;
      g->e = ne;
      g->cap = ncap;
    }
  g->e[g->n++] = (struct dedge) { from, to, flags, cfg, 0, 0, 0 };
  return 0;
}

/* Sort, and merge repeated pairs (their flags together). */
static void
g_sort (struct graph *g)
{
  qsort (g->e, g->n, sizeof *g->e, dedge_cmp);
  size_t m = 0;
  for (size_t i = 0; i < g->n; i++)
    if (m > 0 && dedge_cmp (&g->e[m - 1], &g->e[i]) == 0)
      {
        g->e[m - 1].flags |= g->e[i].flags;
        g->e[m - 1].cfg |= g->e[i].cfg;
      }
    else
      g->e[m++] = g->e[i];
  g->n = m;
}

/* The first edge (sorted) out of FROM, or where it would be. */
static size_t
g_first (const struct graph *g, uint32_t from)
{
  size_t lo = 0, hi = g->n;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      if (g->e[mid].from < from)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static struct dedge *
g_find (const struct graph *g, uint32_t from, uint32_t to)
{
  struct dedge key = { .from = from, .to = to };
  return bsearch (&key, g->e, g->n, sizeof *g->e, dedge_cmp);
}

/* The block at IDS[k] if it is one of the function's, else UINT32_MAX. */
static uint32_t
g_block (const struct graph *g, uint64_t ids, uint32_t k)
{
  uint32_t b = g->v->ids[ids + k];
  return b - g->block0 < g->nblocks ? b : UINT32_MAX;
}

/* Without EDGES: the pairs of consecutive blocks of the rows (not into
   block 0: that is a call, never a CFG edge) become the edges. */
static int
g_seen_edges (struct graph *g, uint64_t ids, uint32_t len)
{
  for (uint32_t k = 0; k + 1 < len; k++)
    {
      uint32_t a = g_block (g, ids, k), b = g_block (g, ids, k + 1);
      if (a != UINT32_MAX && b != UINT32_MAX && b != g->block0
          && g_add (g, a, b, 0, 0) != 0)
        return -1;
    }
  return 0;
}

static void
g_credit (struct dedge *d, uint64_t stamp, double share, int is_path)
{
  if (d == NULL || d->stamp == stamp)
    return;
  d->stamp = stamp;
  if (is_path)
    d->path += share;
  else
    d->sub += share;
}

/* Add one row's share to the edges and blocks it passes, once each.  A
   Ball-Larus path also passes the edge out of its last block when that
   block has one normal successor (its return, or the back edge to a loop
   header: the path ends by taking it), and ENTRY -> b0 when it starts at
   block 0; a subpath passes ENTRY -> b0 when it comes from a caller. */
static void
g_row (struct graph *g, uint64_t stamp, uint64_t ids, uint32_t len,
       double share, int is_path)
{
  for (uint32_t k = 0; k < len; k++)
    {
      uint32_t a = g_block (g, ids, k);
      if (a == UINT32_MAX)
        continue;
      uint32_t bi = a - g->block0;
      if (g->bstamp[bi] != stamp)
        {
          g->bstamp[bi] = stamp;
          if (is_path)
            g->bpath[bi] += share;
          else
            g->bsub[bi] += share;
        }
      if (a == g->block0 && ((is_path && k == 0)
                             || (!is_path && k > 0
                                 && g_block (g, ids, k - 1) == UINT32_MAX)))
        g_credit (g_find (g, ENTRY_NODE, a), stamp, share, is_path);
      if (k + 1 < len)
        {
          uint32_t b = g_block (g, ids, k + 1);
          if (b != UINT32_MAX)
            g_credit (g_find (g, a, b), stamp, share, is_path);
        }
      else if (is_path)
        {
          struct dedge *only = NULL;
          int normal = 0;
          for (size_t i = g_first (g, a); i < g->n && g->e[i].from == a; i++)
            if (!(g->e[i].flags & (OSP_EDGE_ABNORMAL | OSP_EDGE_EH)))
              {
                only = &g->e[i];
                normal++;
              }
          if (normal == 1 && only->cfg)
            g_credit (only, stamp, share, is_path);
        }
    }
}

static void
g_free (struct graph *g)
{
  free (g->e);
  free (g->bpath);
  free (g->bsub);
  free (g->bstamp);
}

/* The function's edges and the rows' shares on them.  0, or -1 out of
   memory. */
static int
g_build (struct graph *g, const struct view *v, uint32_t fi)
{
  const struct osp_vfn *f = view_fn (v, fi);
  memset (g, 0, sizeof *g);
  g->v = v;
  g->fi = fi;
  g->block0 = f->block0;
  g->nblocks = f->nblocks;
  size_t nb = f->nblocks ? f->nblocks : 1;
  g->bpath = calloc (nb, sizeof *g->bpath);
  g->bsub = calloc (nb, sizeof *g->bsub);
  g->bstamp = calloc (nb, sizeof *g->bstamp);
  if (!g->bpath || !g->bsub || !g->bstamp)
    return -1;
  if (f->nblocks && g_add (g, ENTRY_NODE, f->block0, 0, 1) != 0)
    return -1;
  for (uint64_t i = edge_first (v, f->block0);
       i < v->nedges && view_edge (v, i)->from - f->block0 < f->nblocks; i++)
    {
      const struct osp_vedge *e = view_edge (v, i);
      if (g_add (g, e->from, e->to, e->flags, 1) != 0)
        return -1;
    }
  if (v->edges == NULL)
    {
      for (uint64_t i = 0; i < v->npaths; i++)
        if (view_path (v, i)->fn == fi
            && g_seen_edges (g, view_path (v, i)->ids,
                             view_path (v, i)->len) != 0)
          return -1;
      for (uint64_t i = 0; i < v->nsubpaths; i++)
        if (g_seen_edges (g, view_subpath (v, i)->ids,
                          view_subpath (v, i)->len) != 0)
          return -1;
    }
  g_sort (g);
  uint64_t stamp = 0;
  for (uint64_t i = 0; i < v->npaths; i++)
    if (view_path (v, i)->fn == fi)
      g_row (g, ++stamp, view_path (v, i)->ids, view_path (v, i)->len,
             view_path (v, i)->share, 1);
  for (uint64_t i = 0; i < v->nsubpaths; i++)
    g_row (g, ++stamp, view_subpath (v, i)->ids, view_subpath (v, i)->len,
           view_subpath (v, i)->share, 0);
  return 0;
}

/* Cold (blue) to hot (red) for T in [0, 1], as Graphviz "H S V". */
static void
put_heat (FILE *f, double t, double sat)
{
  if (!(t >= 0))
    t = 0;
  if (t > 1)
    t = 1;
  fprintf (f, "%.3f %.3f %.3f", 0.66 * (1 - t), sat, 1.0 - 0.15 * t);
}

/* Rank candidates for an unknown name: 0 equal ignoring case, 1 one
   contains the other, else 2 + the edit distance (first 64 bytes). */
static unsigned
closeness (const char *want, const char *name)
{
  if (strcasecmp (want, name) == 0)
    return 0;
  if (strcasestr (name, want) || strcasestr (want, name))
    return 1;
  size_t n = strnlen (want, 64), m = strnlen (name, 64);
  unsigned row[65];
  for (size_t j = 0; j <= m; j++)
    row[j] = (unsigned) j;
  for (size_t i = 1; i <= n; i++)
    {
      unsigned diag = row[0];
      row[0] = (unsigned) i;
      for (size_t j = 1; j <= m; j++)
        {
          unsigned up = row[j];
          unsigned best = diag + (want[i - 1] != name[j - 1]);
          if (up + 1 < best)
            best = up + 1;
          if (row[j - 1] + 1 < best)
            best = row[j - 1] + 1;
          row[j] = best;
          diag = up;
        }
    }
  return 2 + row[m];
}

struct cand
{
  uint32_t fi;
  unsigned close;
  double heat;
};

static int
cand_cmp (const void *pa, const void *pb)
{
  const struct cand *a = pa, *b = pb;
  if (a->close != b->close)
    return a->close < b->close ? -1 : 1;
  if (a->heat != b->heat)
    return a->heat > b->heat ? -1 : 1;
  return a->fi < b->fi ? -1 : a->fi > b->fi;
}

/* One stderr line: WANT names no function; a few close or hot names. */
static void
dot_unknown (const struct view *v, const char *want)
{
  struct cand *c = calloc (v->nfns ? v->nfns : 1, sizeof *c);
  fprintf (stderr, "ospview: --dot: no function '%s' in the view", want);
  if (c == NULL || v->nfns == 0)
    {
      fprintf (stderr, v->nfns ? "\n" : " (it has no functions)\n");
      free (c);
      return;
    }
  for (uint64_t i = 0; i < v->npaths; i++)
    c[view_path (v, i)->fn].heat += view_path (v, i)->share;
  size_t wl = strlen (want);
  unsigned limit = 2 + (unsigned) (wl / 3 > 2 ? wl / 3 : 2);
  for (uint32_t i = 0; i < v->nfns; i++)
    {
      c[i].fi = i;
      c[i].close = closeness (want, fn_name (v, i));
      if (c[i].close > limit)
        c[i].close = UINT32_MAX; /* not close: ranked by heat only */
    }
  qsort (c, v->nfns, sizeof *c, cand_cmp);
  fprintf (stderr, "; %s: ", c[0].close != UINT32_MAX ? "close or hot ones"
                                                      : "the hottest");
  for (uint64_t i = 0; i < v->nfns && i < DOT_SUGGEST; i++)
    {
      fputs (i ? ", " : "", stderr);
      put_plain (stderr, fn_name (v, c[i].fi));
    }
  fprintf (stderr, "%s\n", v->nfns > DOT_SUGGEST ? ", ..." : "");
  free (c);
}

/* NAME or NAME@FILE (FILE: the whole path, a suffix or the base name).
   The function's index, or -1 after one stderr line. */
static int64_t
dot_find (const struct view *v, const char *arg)
{
  const char *at = strrchr (arg, '@');
  size_t nl = strlen (arg);
  int64_t found = -1;
  uint64_t count = 0;
  /* the whole argument as a name first: a name may hold an '@' */
  for (int pass = 0; pass < 2 && found < 0; pass++)
    {
      if (pass == 1)
        {
          if (at == NULL)
            break;
          nl = (size_t) (at - arg);
        }
      for (uint32_t i = 0; i < v->nfns; i++)
        {
          const struct osp_vfn *f = view_fn (v, i);
          const char *name = view_str (v, f->name);
          if (strncmp (name, arg, nl) != 0 || name[nl] != '\0')
            continue;
          if (pass == 1)
            {
              const char *file = view_str (v, f->file), *want = at + 1;
              size_t fl = strlen (file), wl = strlen (want);
              if (strcmp (file, want) != 0
                  && !(fl > wl && strcmp (file + fl - wl, want) == 0
                       && file[fl - wl - 1] == '/')
                  && strcmp (base_name (file), base_name (want)) != 0)
                continue;
            }
          if (found < 0)
            found = i;
          count++;
        }
    }
  if (found < 0)
    {
      dot_unknown (v, arg);
      return -1;
    }
  if (count > 1)
    {
      fprintf (stderr, "ospview: --dot: %llu functions match '%s': drawing "
               "the first, in ", (unsigned long long) count, arg);
      put_plain (stderr, view_str (v, view_fn (v, (uint64_t) found)->file));
      fputs (" (give NAME@FILE for another)\n", stderr);
    }
  return found;
}

static void
dot_node_name (FILE *f, const struct graph *g, uint32_t b)
{
  if (b == OSP_VIEW_EXIT)
    fputs ("EXIT", f);
  else if (b == ENTRY_NODE)
    fputs ("ENTRY", f);
  else
    fprintf (f, "b%u", view_block (g->v, b)->block);
}

static int
export_dot (const struct view *v, const char *arg)
{
  int64_t fi = dot_find (v, arg);
  if (fi < 0)
    return 1;
  struct graph g;
  if (g_build (&g, v, (uint32_t) fi) != 0)
    {
      g_free (&g);
      fprintf (stderr, "ospview: out of memory\n");
      return 1;
    }
  const struct osp_vfn *f = view_fn (v, (uint64_t) fi);
  const char *file = view_str (v, f->file);
  int fn_paths = 0;
  for (uint64_t i = 0; i < v->npaths; i++)
    fn_paths += view_path (v, i)->fn == (uint32_t) fi;
  /* The weight drawn: the Ball-Larus paths' shares, or the subpaths'
     when the view has no path of this function. */
  int by_path = fn_paths > 0;
  double emax = 0, bmax = 0;
  for (size_t i = 0; i < g.n; i++)
    {
      double w = by_path ? g.e[i].path : g.e[i].sub;
      emax = w > emax ? w : emax;
    }
  for (uint32_t b = 0; b < g.nblocks; b++)
    {
      double w = by_path ? g.bpath[b] : g.bsub[b];
      bmax = w > bmax ? w : bmax;
    }

  FILE *o = stdout;
  fputs ("digraph \"", o);
  put_dot_str (o, view_str (v, f->name));
  fputs ("\" {\n  graph [labelloc=t, labeljust=l, fontname=\"Helvetica\", "
         "fontsize=11, label=\"", o);
  put_dot_str (o, view_str (v, v->run.program));
  fputs (": ", o);
  put_dot_str (o, view_str (v, f->name));
  fputs ("() ", o);
  put_dot_str (o, file);
  if (f->first_line)
    fprintf (o, ":%u", f->first_line);
  if (known (f->calls))
    fprintf (o, ", called %llu times", (unsigned long long) f->calls);
  if (by_path)
    fprintf (o, "\\lwidth and colour: the summed shares of this function's "
             "%d Ball-Larus paths through each edge and block, as a "
             "fraction of all %llu path ends (sampled estimates)",
             fn_paths, (unsigned long long) v->run.path_ends);
  else if (v->nsubpaths)
    fprintf (o, "\\lno Ball-Larus path of this function in the view: width "
             "and colour by the summed shares of the hot subpaths through "
             "each edge and block, as fractions of the %llu blocks seen "
             "(overlapping subpaths may sum past 100%%)",
             (unsigned long long) v->run.blocks_seen);
  else
    fputs ("\\lno hot paths or subpaths in the view: nothing is shaded", o);
  fputs ("\\ldashed: back edge; dotted: abnormal or EH edge; osp_subpaths "
         "on each edge: the hot subpaths' summed shares", o);
  if (v->edges == NULL)
    fputs ("\\lthis view has no EDGES section (an older writer): only the "
           "edges seen in paths and subpaths are drawn", o);
  fputs ("\\l\"];\n  node [shape=box, style=\"rounded,filled\", "
         "fillcolor=white, fontname=\"Helvetica\", fontsize=10];\n"
         "  edge [fontname=\"Helvetica\", fontsize=9];\n", o);
  fputs ("  ENTRY [shape=oval, label=\"ENTRY\"];\n"
         "  EXIT [shape=oval, label=\"EXIT\"];\n", o);

  for (uint32_t b = 0; b < g.nblocks; b++)
    {
      const struct osp_vblock *bl = view_block (v, g.block0 + b);
      double w = by_path ? g.bpath[b] : g.bsub[b];
      fprintf (o, "  b%u [label=\"b%u  ", bl->block, bl->block);
      put_dot_str (o, base_name (file));
      if (bl->first_line && bl->last_line > bl->first_line)
        fprintf (o, ":%u-%u", bl->first_line, bl->last_line);
      else if (bl->first_line)
        fprintf (o, ":%u", bl->first_line);
      if (known (bl->count))
        fprintf (o, "\\n%llu entries", (unsigned long long) bl->count);
      if (w > 0)
        fprintf (o, "\\n%.1f%%", 100 * w);
      fprintf (o, "\", osp_paths=\"%.6f\", osp_subpaths=\"%.6f\"",
               g.bpath[b], g.bsub[b]);
      if (w > 0 && bmax > 0)
        {
          fputs (", fillcolor=\"", o);
          put_heat (o, w / bmax, 0.35);
          fputc ('"', o);
        }
      fputs ("];\n", o);
    }

  for (size_t i = 0; i < g.n; i++)
    {
      const struct dedge *d = &g.e[i];
      double w = by_path ? d->path : d->sub;
      fputs ("  ", o);
      dot_node_name (o, &g, d->from);
      fputs (" -> ", o);
      dot_node_name (o, &g, d->to);
      fprintf (o, " [penwidth=%.2f", emax > 0 ? 1 + 8 * w / emax : 1.0);
      if (w > 0 && emax > 0)
        {
          fputs (", color=\"", o);
          put_heat (o, w / emax, 0.85);
          fputc ('"', o);
        }
      else
        fputs (", color=gray55", o);
      const char *tf = d->flags & OSP_EDGE_TRUE    ? "T"
                       : d->flags & OSP_EDGE_FALSE ? "F"
                                                   : "";
      if (w >= DOT_LABEL_MIN)
        fprintf (o, ", label=\"%s%s%.1f%%\"", tf, *tf ? " " : "", 100 * w);
      else if (*tf)
        fprintf (o, ", label=\"%s\"", tf);
      if (d->flags & (OSP_EDGE_ABNORMAL | OSP_EDGE_EH))
        fputs (", style=dotted", o);
      else if (d->flags & OSP_EDGE_BACK)
        fputs (", style=dashed", o);
      fprintf (o, ", osp_paths=\"%.6f\", osp_subpaths=\"%.6f\"];\n", d->path,
               d->sub);
    }
  fputs ("}\n", o);
  g_free (&g);
  return 0;
}

/* ---- --annotate: source lines with their shares ---------------------- */

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
  qsort (fs->name, v->nfns, sizeof *fs->name, str_ptr_cmp);
  for (uint64_t i = 0; i < v->nfns; i++)
    if (fs->n == 0 || strcmp (fs->name[fs->n - 1], fs->name[i]) != 0)
      fs->name[fs->n++] = fs->name[i];
  for (uint64_t i = 0; i < v->nfns; i++)
    {
      const char *key = view_str (v, view_fn (v, i)->file);
      const char **p = bsearch (&key, fs->name, fs->n, sizeof *fs->name,
                                str_ptr_cmp);
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

/* A change of the line shares: at LINE of FILE, column COL (0 subpaths,
   1 paths) gains D (one row's share, or minus it) and C rows. */
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

struct ivl
{
  uint32_t file;
  uint64_t first, last;
};

static int
ivl_cmp (const void *pa, const void *pb)
{
  const struct ivl *a = pa, *b = pb;
  if (a->file != b->file)
    return a->file < b->file ? -1 : 1;
  return a->first < b->first ? -1 : a->first > b->first;
}

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
  struct ev *ev;
  size_t nev, evcap;
  struct span *sp;
  size_t nsp, spcap;
  struct ivl *iv;       /* scratch: one row's intervals */
  size_t ivcap;
};

static int
grow (void **p, size_t *cap, size_t need, size_t size)
{
  if (need <= *cap)
    return 0;
  size_t ncap = *cap ? *cap : 64;
  while (ncap < need)
    ncap *= 2;
  void *np = realloc (*p, ncap * size);
  if (np == NULL)
    return -1;
  *p = np;
  *cap = ncap;
  return 0;
}

/* One row: its blocks' line ranges merged per file (so a line counts the
   row once), each merged range two events. */
static int
lines_row (struct lines *L, const struct view *v, const struct files *fs,
           uint64_t ids, uint32_t len, double share, uint32_t col)
{
  if (grow ((void **) &L->iv, &L->ivcap, len ? len : 1, sizeof *L->iv) != 0)
    return -1;
  size_t n = 0;
  for (uint32_t k = 0; k < len; k++)
    {
      const struct osp_vblock *b = view_block (v, v->ids[ids + k]);
      if (b->first_line == 0)
        continue;
      L->iv[n++] = (struct ivl) {
        fs->of_fn[b->fn], b->first_line,
        b->last_line > b->first_line ? b->last_line : b->first_line };
    }
  qsort (L->iv, n, sizeof *L->iv, ivl_cmp);
  for (size_t i = 0; i < n;)
    {
      struct ivl m = L->iv[i++];
      while (i < n && L->iv[i].file == m.file && L->iv[i].first <= m.last + 1)
        {
          if (L->iv[i].last > m.last)
            m.last = L->iv[i].last;
          i++;
        }
      if (grow ((void **) &L->ev, &L->evcap, L->nev + 2, sizeof *L->ev) != 0)
        return -1;
      L->ev[L->nev++] = (struct ev) { m.file, col, m.first, share, 1 };
      L->ev[L->nev++] = (struct ev) { m.file, col, m.last + 1, -share, -1 };
    }
  return 0;
}

/* The events swept into spans of equal shares. */
static int
lines_sweep (struct lines *L)
{
  qsort (L->ev, L->nev, sizeof *L->ev, ev_cmp);
  double sum[2] = { 0, 0 };
  long cnt[2] = { 0, 0 };
  for (size_t i = 0; i < L->nev;)
    {
      uint32_t file = L->ev[i].file;
      uint64_t line = L->ev[i].line;
      for (; i < L->nev && L->ev[i].file == file && L->ev[i].line == line; i++)
        {
          uint32_t c = L->ev[i].col;
          sum[c] += L->ev[i].d;
          cnt[c] += L->ev[i].c;
          if (cnt[c] == 0)
            sum[c] = 0; /* exactly: no rounding residue on blank lines */
        }
      if (cnt[0] == 0 && cnt[1] == 0)
        continue;
      /* the span runs to the next event (of this file: a range always
         closes in its own file) */
      uint64_t to = i < L->nev ? L->ev[i].line : line + 1;
      if (grow ((void **) &L->sp, &L->spcap, L->nsp + 1, sizeof *L->sp) != 0)
        return -1;
      L->sp[L->nsp++] = (struct span) { file, line, to, { sum[0], sum[1] } };
    }
  return 0;
}

static void
lines_free (struct lines *L)
{
  free (L->ev);
  free (L->sp);
  free (L->iv);
}

/* A source file read whole (at most SRC_MAX bytes), split into lines. */
struct text
{
  char *buf;
  size_t *start;   /* line i + 1 starts at buf + start[i] */
  size_t n;
  char why[128];
};

static int
text_read (struct text *t, const char *path)
{
  memset (t, 0, sizeof *t);
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  struct stat sb;
  if (fd < 0)
    {
      snprintf (t->why, sizeof t->why, "%s", strerror (errno));
      return -1;
    }
  if (fstat (fd, &sb) != 0 || !S_ISREG (sb.st_mode)
      || (uint64_t) sb.st_size > SRC_MAX)
    {
      snprintf (t->why, sizeof t->why, "not a regular file of at most 16M");
      close (fd);
      return -1;
    }
  size_t size = (size_t) sb.st_size, got = 0;
  t->buf = malloc (size + 1);
  while (t->buf && got < size)
    {
      ssize_t k = read (fd, t->buf + got, size - got);
      if (k <= 0)
        break;
      got += (size_t) k;
    }
  close (fd);
  size_t n = 1;
  for (size_t i = 0; t->buf && i < got; i++)
    n += t->buf[i] == '\n';
  t->start = t->buf ? malloc (n * sizeof *t->start) : NULL;
  if (t->start == NULL)
    {
      free (t->buf);
      t->buf = NULL;
      snprintf (t->why, sizeof t->why, "out of memory");
      return -1;
    }
  t->buf[got] = '\0';
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

/* A source line as it is, but control characters (not tabs) as '?'. */
static void
put_src (FILE *o, const char *s)
{
  for (; *s; s++)
    fputc (((unsigned char) *s < 0x20 && *s != '\t') || *s == 0x7f ? '?'
                                                                   : *s,
           o);
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
      snprintf (c[k], sizeof c[k], "%.2f%%", 100 * s[k]);
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
  put_plain (stdout, *path ? path : "(no file name)");
  printf (" (");
  size_t nfn = fs->start[fi + 1] - fs->start[fi];
  for (size_t i = 0; i < nfn && i < 8; i++)
    {
      fputs (i ? ", " : "", stdout);
      put_plain (stdout, fn_name (v, fs->by_file[fs->start[fi] + i]));
      fputs ("()", stdout);
    }
  if (nfn > 8)
    printf (", %zu more", nfn - 8);
  printf (") ====\n");
  struct text t;
  int ok = *path && text_read (&t, path) == 0;
  if (!ok)
    {
      printf ("(source not found: ");
      put_plain (stdout, *path ? path : "(no file name)");
      printf (": %s; only the covered lines are listed)\n",
              *path ? t.why : "the view has no file name");
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

/* Whether the view's file PATH is the one the user named: exactly
   (MODE 0), by a suffix at a '/' (1), by the base name (2). */
static int
file_match (const char *path, const char *want, int mode)
{
  size_t pl = strlen (path), wl = strlen (want);
  if (mode == 0)
    return strcmp (path, want) == 0;
  if (mode == 1)
    return pl > wl && strcmp (path + pl - wl, want) == 0
           && (want[0] == '/' || path[pl - wl - 1] == '/');
  return strcmp (base_name (path), base_name (want)) == 0;
}

static int
export_annotate (const struct view *v, const char *want)
{
  struct files fs;
  struct lines L;
  memset (&L, 0, sizeof L);
  int rc = files_build (&fs, v);
  unsigned char *pick = rc == 0 ? calloc (fs.n ? fs.n : 1, 1) : NULL;
  if (pick == NULL)
    rc = -1;
  for (uint64_t i = 0; i < v->nsubpaths && rc == 0; i++)
    rc = lines_row (&L, v, &fs, view_subpath (v, i)->ids,
                    view_subpath (v, i)->len, view_subpath (v, i)->share, 0);
  for (uint64_t i = 0; i < v->npaths && rc == 0; i++)
    rc = lines_row (&L, v, &fs, view_path (v, i)->ids, view_path (v, i)->len,
                    view_path (v, i)->share, 1);
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
      if (file_match (fs.name[i], want, mode))
        pick[i] = 1, npick++;
  if (want && npick == 0)
    {
      fprintf (stderr, "ospview: --annotate: no source file '%s' in the "
               "view; its files:", want);
      for (size_t i = 0; i < fs.n && i < 5; i++)
        {
          fputs (i ? ", " : " ", stderr);
          put_plain (stderr, fs.name[i]);
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
  put_plain (stdout, view_str (v, v->run.program));
  printf (", pid %lld, view #%llu\n"
          "subpaths: the summed shares of the hot subpaths covering the "
          "line, of %llu blocks seen (overlapping subpaths may sum past "
          "100%%)\n"
          "paths: the summed shares of the Ball-Larus paths covering the "
          "line, of %llu path ends\n"
          ">>: at least %.0f%% of the hottest line's %s share "
          "(sampled estimates)\n",
          (long long) v->run.pid, (unsigned long long) v->hdr->seq,
          (unsigned long long) v->run.blocks_seen,
          (unsigned long long) v->run.path_ends, 100 * HOT_MARK,
          a.col ? "paths" : "subpaths");
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
            put_plain (stdout, fs.name[i]);
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

/* ---- entry ----------------------------------------------------------- */

int
export_main (const struct source *s, enum export_kind kind, const char *arg)
{
  struct loaded l;
  memset (&l, 0, sizeof l);
  int rc = 1;
  if (load (s, &l) == 0)
    {
      if (kind == EXPORT_JSON)
        rc = export_json (s, &l.v);
      else if (kind == EXPORT_DOT)
        rc = export_dot (&l.v, arg ? arg : "");
      else
        rc = export_annotate (&l.v, arg && *arg ? arg : NULL);
    }
  free (l.buf);
  if (fflush (stdout) != 0 || ferror (stdout))
    {
      fprintf (stderr, "ospview: writing the output: %s\n", strerror (errno));
      rc = 1;
    }
  return rc;
}
