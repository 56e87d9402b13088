/* SPDX-License-Identifier: GPL-3.0-or-later */
/* export-dot.c - ospview --dot=FUNCTION: one function's control-flow graph
 * in Graphviz DOT, the edges and blocks of its hot paths wider and warmer
 * by share.
 *
 * FUNCTION is NAME or NAME@FILE (FILE as --annotate takes it: the whole
 * path, a suffix at a '/', or the base name); an unknown name is one
 * stderr line suggesting close or hot ones.  The graph is the view's
 * EDGES of the function plus ENTRY -> b0; a view without EDGES (an older
 * writer) gets the edges seen in its rows instead, and says so.
 *
 * Why it looks like this: a reader wants to see the hot path on the
 * function's graph, so the weight drawn is the summed share of this
 * function's Ball-Larus paths through each edge and block (penwidth
 * 1 + 8 share / the largest, colour from blue to red), or the hot
 * subpaths' when the view has no path of the function; each row counts
 * once per edge and block (stamps), and a path is also credited with the
 * edge it ends by (its return, or the back edge to a loop header) when
 * its last block has one normal successor.  Both sums are written on
 * every node and edge (osp_paths, osp_subpaths) for scripts.  Edges are
 * sorted, merged and looked up by binary search, so the graph is
 * deterministic and a row costs its length times log of the edges.
 */
#define _GNU_SOURCE
#include "export.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "osp/abi.h"

#define DOT_LABEL_MIN 0.01    /* edges with a share >= 1% labelled */
#define DOT_SUGGEST 5         /* names suggested for an unknown one */

#define ENTRY_NODE (OSP_VIEW_EXIT - 1) /* "from" of the edge ENTRY -> b0 */

/* The summed shares on an edge or a block: of the Ball-Larus paths and
   of the subpaths passing it, each row counted once. */
struct sum
{
  double path, sub;
  uint64_t stamp;      /* the last row counted (its stamp, from 1) */
};

struct dedge
{
  uint32_t from, to;   /* BLOCKS indices, OSP_VIEW_EXIT, ENTRY_NODE */
  uint32_t flags;
  int cfg;             /* from EDGES (else only seen in rows) */
  struct sum s;
};

struct graph
{
  const struct view *v;
  uint32_t fi, block0, nblocks;
  struct dedge *e;
  size_t n, cap;
  struct sum *blk;           /* per block of the function */
  uint64_t rows;             /* rows counted so far: the stamps */
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
  if (ex_grow ((void **) &g->e, &g->cap, g->n + 1, sizeof *g->e) != 0)
    return -1;
  g->e[g->n++] = (struct dedge) { from, to, flags, cfg, { 0, 0, 0 } };
  return 0;
}

/* Sort, and merge repeated pairs (their flags together). */
static void
g_sort (struct graph *g)
{
  ospview_sort (g->e, g->n, sizeof *g->e, dedge_cmp);
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

/* The sums of the edge FROM -> TO, NULL when the graph has none. */
static struct sum *
g_sum (const struct graph *g, uint32_t from, uint32_t to)
{
  struct dedge key = { .from = from, .to = to };
  struct dedge *d
      = ospview_search (&key, g->e, g->n, sizeof *g->e, dedge_cmp);
  return d ? &d->s : NULL;
}

/* The block at IDS[k] if it is one of the function's, else UINT32_MAX. */
static uint32_t
g_block (const struct graph *g, uint64_t ids, uint32_t k)
{
  uint32_t b = g->v->ids[ids + k];
  return b - g->block0 < g->nblocks ? b : UINT32_MAX;
}

/* Whether row R counts for the graph: every subpath (the function's
   blocks in it), only the function's own Ball-Larus paths. */
static int
g_counts (const struct graph *g, const struct ex_row *r)
{
  return !r->is_path || r->fn == g->fi;
}

/* Without EDGES: the pairs of consecutive blocks of the rows (not into
   block 0: that is a call, never a CFG edge) become the edges.  An
   ex_rows callback. */
static int
g_seen_edges (void *ctx, const struct ex_row *r)
{
  struct graph *g = ctx;
  if (!g_counts (g, r))
    return 0;
  for (uint32_t k = 0; k + 1 < r->len; k++)
    {
      uint32_t a = g_block (g, r->ids, k), b = g_block (g, r->ids, k + 1);
      if (a != UINT32_MAX && b != UINT32_MAX && b != g->block0
          && g_add (g, a, b, 0, 0) != 0)
        return -1;
    }
  return 0;
}

/* Row STAMP's share into S (an edge's or a block's; NULL: none), unless
   the row passed there already. */
static void
g_credit (struct sum *s, uint64_t stamp, double share, int is_path)
{
  if (s == NULL || s->stamp == stamp)
    return;
  s->stamp = stamp;
  if (is_path)
    s->path = ospview_sat (s->path + share);
  else
    s->sub = ospview_sat (s->sub + share);
}

/* What is drawn of S: the paths' sum, or the subpaths' (BY_PATH 0). */
static double
drawn (const struct sum *s, int by_path)
{
  return by_path ? s->path : s->sub;
}

/* Add one row's share to the edges and blocks it passes, once each.  A
   Ball-Larus path also passes the edge out of its last block when that
   block has one normal successor (its return, or the back edge to a loop
   header: the path ends by taking it), and ENTRY -> b0 when it starts at
   block 0; a subpath passes ENTRY -> b0 when it comes from a caller.  An
   ex_rows callback. */
static int
g_row (void *ctx, const struct ex_row *r)
{
  struct graph *g = ctx;
  if (!g_counts (g, r))
    return 0;
  uint64_t ids = r->ids, stamp = ++g->rows;
  uint32_t len = r->len;
  double share = r->share;
  int is_path = r->is_path;
  for (uint32_t k = 0; k < len; k++)
    {
      uint32_t a = g_block (g, ids, k);
      if (a == UINT32_MAX)
        continue;
      g_credit (&g->blk[a - g->block0], stamp, share, is_path);
      if (a == g->block0 && ((is_path && k == 0)
                             || (!is_path && k > 0
                                 && g_block (g, ids, k - 1) == UINT32_MAX)))
        g_credit (g_sum (g, ENTRY_NODE, a), stamp, share, is_path);
      if (k + 1 < len)
        {
          uint32_t b = g_block (g, ids, k + 1);
          if (b != UINT32_MAX)
            g_credit (g_sum (g, a, b), stamp, share, is_path);
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
            g_credit (&only->s, stamp, share, is_path);
        }
    }
  return 0;
}

static void
g_free (struct graph *g)
{
  free (g->e);
  free (g->blk);
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
  g->blk = calloc (nb, sizeof *g->blk);
  if (g->blk == NULL)
    return -1;
  if (f->nblocks && g_add (g, ENTRY_NODE, f->block0, 0, 1) != 0)
    return -1;
  for (uint64_t i = ex_edge_first (v, f->block0);
       i < v->nedges && view_edge (v, i)->from - f->block0 < f->nblocks; i++)
    {
      const struct osp_vedge *e = view_edge (v, i);
      if (g_add (g, e->from, e->to, e->flags, 1) != 0)
        return -1;
    }
  if (v->edges == NULL && ex_rows (v, g_seen_edges, g) != 0)
    return -1;
  g_sort (g);
  return ex_rows (v, g_row, g);
}

/* W as a fraction of the largest, MAX, in [0, 1] (what penwidth and
   colour scale by): 0 when there is nothing to scale by.  W and MAX are
   saturated sums (finite), so W / MAX is never NaN. */
static double
heat (double w, double max)
{
  if (!(max > 0) || !(w > 0))
    return 0;
  return w >= max ? 1 : w / max;
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
    c[view_path (v, i)->fn].heat
        = ospview_sat (c[view_path (v, i)->fn].heat + view_path (v, i)->share);
  size_t wl = strlen (want);
  unsigned limit = 2 + (unsigned) (wl / 3 > 2 ? wl / 3 : 2);
  for (uint32_t i = 0; i < v->nfns; i++)
    {
      c[i].fi = i;
      c[i].close = closeness (want, ex_fn_name (v, i));
      if (c[i].close > limit)
        c[i].close = UINT32_MAX; /* not close: ranked by heat only */
    }
  ospview_sort (c, v->nfns, sizeof *c, cand_cmp);
  fprintf (stderr, "; %s: ", c[0].close != UINT32_MAX ? "close or hot ones"
                                                      : "the hottest");
  for (uint64_t i = 0; i < v->nfns && i < DOT_SUGGEST; i++)
    {
      fputs (i ? ", " : "", stderr);
      ex_put (stderr, ex_fn_name (v, c[i].fi), EX_PLAIN);
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
              const char *file = view_str (v, f->file);
              if (!ex_file_match (file, at + 1, 0)
                  && !ex_file_match (file, at + 1, 1)
                  && !ex_file_match (file, at + 1, 2))
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
      ex_put (stderr, view_str (v, view_fn (v, (uint64_t) found)->file),
              EX_PLAIN);
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

int
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
      double w = drawn (&g.e[i].s, by_path);
      emax = w > emax ? w : emax;
    }
  for (uint32_t b = 0; b < g.nblocks; b++)
    {
      double w = drawn (&g.blk[b], by_path);
      bmax = w > bmax ? w : bmax;
    }

  FILE *o = stdout;
  fputs ("digraph \"", o);
  ex_put (o, view_str (v, f->name), EX_DOT);
  fputs ("\" {\n  graph [labelloc=t, labeljust=l, fontname=\"Helvetica\", "
         "fontsize=11, label=\"", o);
  ex_put (o, view_str (v, v->run.program), EX_DOT);
  fputs (": ", o);
  ex_put (o, view_str (v, f->name), EX_DOT);
  fputs ("() ", o);
  ex_put (o, file, EX_DOT);
  if (f->first_line)
    fprintf (o, ":%u", f->first_line);
  if (ex_known (f->calls))
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
      double w = drawn (&g.blk[b], by_path);
      fprintf (o, "  b%u [label=\"b%u  ", bl->block, bl->block);
      ex_put (o, ex_base_name (file), EX_DOT);
      if (bl->first_line && bl->last_line > bl->first_line)
        fprintf (o, ":%u-%u", bl->first_line, bl->last_line);
      else if (bl->first_line)
        fprintf (o, ":%u", bl->first_line);
      if (ex_known (bl->count))
        fprintf (o, "\\n%llu entries", (unsigned long long) bl->count);
      char x[OSPVIEW_NUM], y[OSPVIEW_NUM];
      if (w > 0)
        fprintf (o, "\\n%s", ospview_pct (x, sizeof x, w, 1));
      fprintf (o, "\", osp_paths=\"%s\", osp_subpaths=\"%s\"",
               ospview_num (x, sizeof x, g.blk[b].path, 6),
               ospview_num (y, sizeof y, g.blk[b].sub, 6));
      if (w > 0 && bmax > 0)
        {
          fputs (", fillcolor=\"", o);
          put_heat (o, heat (w, bmax), 0.35);
          fputc ('"', o);
        }
      fputs ("];\n", o);
    }

  for (size_t i = 0; i < g.n; i++)
    {
      const struct dedge *d = &g.e[i];
      double w = drawn (&d->s, by_path);
      fputs ("  ", o);
      dot_node_name (o, &g, d->from);
      fputs (" -> ", o);
      dot_node_name (o, &g, d->to);
      fprintf (o, " [penwidth=%.2f", 1 + 8 * heat (w, emax));
      if (w > 0 && emax > 0)
        {
          fputs (", color=\"", o);
          put_heat (o, heat (w, emax), 0.85);
          fputc ('"', o);
        }
      else
        fputs (", color=gray55", o);
      const char *tf = d->flags & OSP_EDGE_TRUE    ? "T"
                       : d->flags & OSP_EDGE_FALSE ? "F"
                                                   : "";
      char x[OSPVIEW_NUM], y[OSPVIEW_NUM];
      if (w >= DOT_LABEL_MIN)
        fprintf (o, ", label=\"%s%s%s\"", tf, *tf ? " " : "",
                 ospview_pct (x, sizeof x, w, 1));
      else if (*tf)
        fprintf (o, ", label=\"%s\"", tf);
      if (d->flags & (OSP_EDGE_ABNORMAL | OSP_EDGE_EH))
        fputs (", style=dotted", o);
      else if (d->flags & OSP_EDGE_BACK)
        fputs (", style=dashed", o);
      fprintf (o, ", osp_paths=\"%s\", osp_subpaths=\"%s\"];\n",
               ospview_num (x, sizeof x, d->s.path, 6),
               ospview_num (y, sizeof y, d->s.sub, 6));
    }
  fputs ("}\n", o);
  g_free (&g);
  return 0;
}
