/* SPDX-License-Identifier: GPL-3.0-or-later */
/* diff.c - ospview --diff OLD NEW: what changed between two snapshots.
 *
 * Matching by content, not by ids.  The runtime's ids (function ids in
 * registration order, block numbers, Ball-Larus path ids) change as soon
 * as the program is rebuilt with one more function or other flags, and a
 * diff is most wanted exactly then (before and after a change).  So a row
 * is matched by what the user reads in it: scr_path_text (v, ids, len, 1),
 * the path as function names and file:lines, no ids.  The keys:
 *   subpaths   the path text and the length: the compact text joins line
 *              ranges, so a loop's subpaths of 4, 8 and 16 blocks read the
 *              same, and they are different rows (their shares are of
 *              different classes), so never added up
 *   paths      the function's name, then the path text
 *   forest     the chain of (function, path text) from the root down to the
 *              node: a node is the same node when it continues the same
 *              chain (its share is a fraction of its parent's, so the parent
 *              is part of what it means).  Not spelled out: a chain is
 *              numbered the first time either snapshot shows it (struct
 *              chains, shared by both sides), and a node's key is its
 *              parent's chain number and its own (function, path text), so
 *              keys stay the size of one node's text however deep the
 *              chain (a 20,000-node chain once took 8 GB of keys)
 *   functions  name and file (first lines may move between builds)
 * Two rows of one snapshot with the same key (different blocks with the
 * same lines, e.g. after inlining or tail duplication) cannot be told
 * apart by a reader either: they are added up (shares summed, errors in
 * quadrature).  A rebuild that moves source lines changes the keys: those
 * rows show up as gone and new, which is what the text says too.
 *
 * The numbers compared are shares (fractions of each run's own
 * denominator, so runs of different lengths compare): subpaths of
 * RUN.blocks_seen, paths of all recorded path ends, forest nodes of all
 * forest items (the product of the view's shares, each a fraction of the
 * parent's count, along the chain: a conditional share jumps to 100% for
 * any new continuation however rare, and would say nothing about the
 * run; the detail pane shows it); functions: the summed share
 * of the function's Ball-Larus paths (a fraction of all path ends), or,
 * when only both snapshots have subpaths, of the hot subpaths that start
 * in it (those overlap, so they do not add up to anything; the title says
 * which basis was used).  A share's 95% error is err95 scaled like the share
 * (share x err95 / estimate: err95 / blocks_seen for subpaths, the Poisson
 * error of the samples for paths, the burst error for forest nodes; 0 when
 * counted exactly); a delta whose size is below the two errors combined,
 * sqrt (a^2 + b^2), is flagged '~' (within error).  The rank column is
 * each row's place by share on its side (forest: among its siblings;
 * equal shares, equal places), "+N" when it climbed N places.
 *
 * Rows are in three sections: in both (by |delta|, largest first), only in
 * OLD, only in NEW (by their share); --sort rank|share|length|name and -r
 * change the order, --top limits each section, --filter keeps rows whose
 * whole text contains the text.  --fail-above=PP: exit 3 when a row in
 * both or only in NEW (of the screens compared, after --filter, before
 * --top) grew by more than PP percentage points, flagged '~' or not (the
 * contract is the size of the growth; stderr says "within error" for
 * those); stderr names the largest few.
 *
 * Arithmetic on the shares saturates and every number is printed by
 * ospview_num (ospview.h): huge inputs give "1.80e+308%", never "inf%".
 *
 * The same tables are the text output (-b N, any N, or stdout not a
 * terminal: printed once, deterministic: times in UTC) and the terminal
 * UI (tui.c over a "table provider", struct tui_provider in provider.h: no
 * refreshes).
 */
#define _GNU_SOURCE
#include "provider.h"
#include "strtab.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define FAIL_LINES 5       /* --fail-above: rows named on stderr at most */
#define NO_INDEX UINT64_MAX

/* ---- data ---------------------------------------------------------------- */

/* One side's row of one screen, before matching. */
struct dent
{
  char *key;             /* the content key (owned) */
  char *group;           /* forest: the parent's key (rank among siblings) */
  char *full, *brief;    /* the text shown, whole and shortened (owned);
                            forest: FULL is the node's own path, its
                            chain's text is built when needed
                            (ent_full) */
  uint32_t chain;        /* forest: its chain's number (struct chains) */
  double share, err;     /* fractions; err: 95% half-width of the share */
  double est, est_err;   /* the estimate behind it (count, samples) */
  double cond;           /* forest: the view's share (of the parent's) */
  uint64_t index;        /* its element in the view (first if merged) */
  uint32_t len;          /* blocks (subpaths, paths, forest) */
  uint32_t rank;         /* place by share on its side, 1 first */
  uint32_t merged;       /* rows of the view added into this one */
};

enum { SEC_BOTH, SEC_OLD, SEC_NEW, NSEC };

struct drow
{
  const struct dent *d[2]; /* OLD, NEW (NULL: absent) */
  double delta, err;     /* NEW - OLD share; combined error */
  int sec;               /* enum SEC_* */
  int within;            /* |delta| < err */
  uint64_t hkey;         /* scr_row.key */
};

struct dscr
{
  struct dent *e[2];
  size_t ne[2];
  struct drow *rows;
  size_t nrows, nsec[NSEC];
  const char *basis;     /* functions: "paths" or "subpaths" */
};

/* Forest chains by content, numbered from 1 in the order first met (OLD's
   nodes, then NEW's): the key "PARENT-NUMBER\tfunction\tpath text" of a
   node names its chain (0 for a root's parent), so equal numbers mean
   equal chains in both snapshots.  Open addressing over owned copies of
   the keys. */
struct chains
{
  char **key;            /* [cap]: NULL free */
  uint32_t *num;         /* [cap] */
  size_t n, cap;
  /* by number (1..n): the parent chain's number (0: a root) and the
     node's own path text, for ent_full */
  uint32_t *up;
  char **own;
  size_t ncap;
};

struct diff
{
  struct snapshot snap[2];
  const struct view *v[2]; /* the views compared: the snapshots', or a live
                            viewer's (diff_views; OLD NULL: nothing yet) */
  const char *path[2];
  struct dscr scr[SCR_NSCREENS];
  unsigned screens;      /* compared (--screen) */
  struct chains chains;
  /* the views of one process (diff_views): the length is part of every
     row's key (paths and forest nodes too: a count of what ran between two
     views must not add up rows that read the same), where a comparison
     across builds keys only subpaths by it (a rebuild may split a path's
     blocks differently, and its text still names the same path) */
  int by_len;
  int between;           /* the UI shows what ran between (R toggles) */
};

static int one_process (const struct diff *d);

static const char *const side_name[2] = { "OLD", "NEW" };

/* ---- small helpers ------------------------------------------------------- */

static char *xasprintf (const char *fmt, ...)
    __attribute__ ((format (printf, 1, 2)));

static char *
xasprintf (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  char *s = NULL;
  int k = vasprintf (&s, fmt, ap);
  va_end (ap);
  return k < 0 ? NULL : s;
}

static uint64_t
fnv (uint64_t h, const char *s)
{
  /* one more byte after the string: "a" then "b" is not "ab" */
  return (osp_fnv1a (h, s) ^ 0xff) * OSP_FNV_PRIME;
}

static const char *
base_name (const char *p)
{
  const char *s = strrchr (p, '/');
  return s ? s + 1 : p;
}

/* A share's 95% error: err95 scaled as the share is scaled. */
static double
share_err (double share, double estimate, double err95)
{
  /* share / estimate first: err95 x share may overflow where the result
     does not */
  return estimate > 0 && err95 > 0 ? ospview_sat (share / estimate * err95)
                                   : 0.0;
}

static void
dent_free (struct dent *e)
{
  free (e->key);
  free (e->group);
  free (e->full);
  free (e->brief);
}

static void
dscr_free (struct dscr *s)
{
  for (int k = 0; k < 2; k++)
    {
      for (size_t i = 0; i < s->ne[k]; i++)
        dent_free (&s->e[k][i]);
      free (s->e[k]);
    }
  free (s->rows);
  memset (s, 0, sizeof *s);
}

/* ---- one side's rows ----------------------------------------------------- */

/* Entries of one screen of one view: filled by the collect_* functions,
   then sorted by key and merged. */
struct elist
{
  struct dent *e;
  size_t n, cap;
};

static struct dent *
el_add (struct elist *l)
{
  if (ospview_grow (&l->e, &l->cap, l->n + 1, sizeof *l->e, 64) != 0)
    return NULL;
  struct dent *e = &l->e[l->n++];
  memset (e, 0, sizeof *e);
  e->merged = 1;
  return e;
}

/* A path row: key PREFIX + its text, its texts, numbers. */
static int
add_path (struct elist *l, const struct view *v, const char *prefix,
          uint64_t ids, uint32_t len, uint64_t index, double share,
          double est, double err95)
{
  struct dent *e = el_add (l);
  if (e == NULL)
    return -1;
  e->full = scr_path_text (v, ids, len, 1);
  e->brief = scr_path_text (v, ids, len, 0);
  if (e->full == NULL || e->brief == NULL)
    return -1;
  e->key = prefix ? xasprintf ("%s\t%s", prefix, e->full) : strdup (e->full);
  if (e->key == NULL)
    return -1;
  e->index = index;
  e->len = len;
  e->share = share;
  e->est = est;
  e->est_err = err95;
  e->err = share_err (share, est, err95);
  return 0;
}

static int
collect_subpaths (struct elist *l, const struct view *v)
{
  for (uint64_t i = 0; i < v->nsubpaths; i++)
    {
      const struct osp_vsubpath *s = view_subpath (v, i);
      if (add_path (l, v, NULL, s->ids, s->len, i, s->share, s->estimate,
                    s->err95)
          != 0)
        return -1;
    }
  return 0;
}

static int
collect_paths (struct elist *l, const struct view *v)
{
  for (uint64_t i = 0; i < v->npaths; i++)
    {
      const struct osp_vpath *p = view_path (v, i);
      if (add_path (l, v, view_str (v, view_fn (v, p->fn)->name), p->ids,
                    p->len, i, p->share, p->estimate, p->err95)
          != 0)
        return -1;
    }
  return 0;
}

/* KEY's slot in a table of CAP (a power of 2), seeded per process
   (ospview_hash_seed: the keys are the snapshots' names). */
static size_t
chain_slot (const char *key, size_t cap)
{
  return ospview_hash_mix (fnv (ospview_hash_seed (), key)) & (cap - 1);
}

static void
chains_free (struct chains *c)
{
  for (size_t i = 0; i < c->cap; i++)
    free (c->key[i]);
  for (size_t i = 0; i <= c->n && i < c->ncap; i++)
    free (c->own[i]);
  free (c->key);
  free (c->num);
  free (c->up);
  free (c->own);
  memset (c, 0, sizeof *c);
}

/* The number of the chain KEY names, a new one if unseen (continuing
   chain UP with the path text OWN): 0 out of memory. */
static uint32_t
chain_number (struct chains *c, const char *key, uint32_t up, const char *own)
{
  if (c->n + 2 > c->ncap)
    {
      /* up and own grow alike; ncap stays the old one until both did */
      size_t ucap = c->ncap, ocap = c->ncap;
      if (ospview_grow (&c->up, &ucap, c->n + 2, sizeof *c->up, 256) != 0
          || ospview_grow (&c->own, &ocap, c->n + 2, sizeof *c->own, 256)
                 != 0)
        return 0;
      for (size_t i = c->ncap; i < ocap; i++)
        c->own[i] = NULL;
      c->ncap = ocap;
    }
  if (2 * (c->n + 1) > c->cap)
    {
      size_t cap = c->cap ? 2 * c->cap : 256;
      char **k = calloc (cap, sizeof *k);
      uint32_t *num = calloc (cap, sizeof *num);
      if (k == NULL || num == NULL || c->n >= UINT32_MAX - 1)
        {
          free (k);
          free (num);
          return 0;
        }
      for (size_t i = 0; i < c->cap; i++)
        if (c->key[i] != NULL)
          {
            size_t j = chain_slot (c->key[i], cap);
            while (k[j] != NULL)
              j = (j + 1) & (cap - 1);
            k[j] = c->key[i];
            num[j] = c->num[i];
          }
      free (c->key);
      free (c->num);
      c->key = k;
      c->num = num;
      c->cap = cap;
    }
  size_t j = chain_slot (key, c->cap);
  while (c->key[j] != NULL && strcmp (c->key[j], key) != 0)
    j = (j + 1) & (c->cap - 1);
  if (c->key[j] != NULL)
    return c->num[j];
  char *own_copy = strdup (own);
  if (own_copy == NULL || (c->key[j] = strdup (key)) == NULL)
    {
      free (own_copy);
      return 0;
    }
  c->num[j] = (uint32_t) ++c->n;
  c->up[c->n] = up;
  c->own[c->n] = own_copy;
  return c->num[j];
}

/* A chain's text, root first: its parts, at most OSP_VIEW_MAX_DEPTH + 1
   (viewparse.c caps the depth), read one character at a time with " || "
   between parts, so that it can be compared without being built. */
struct citer
{
  const char *part[OSP_VIEW_MAX_DEPTH + 1];
  int n, i, in_sep;
  const char *p;
};

static void
citer_init (struct citer *it, const struct chains *c, const struct dent *e)
{
  it->n = 0;
  if (e->chain == 0)
    it->part[it->n++] = e->full;
  else
    {
      uint32_t k = e->chain;
      int n = 0;
      for (uint32_t x = k; x != 0 && n <= (int) OSP_VIEW_MAX_DEPTH;
           x = c->up[x])
        n++;
      it->n = n;
      for (uint32_t x = k; x != 0 && n > 0; x = c->up[x])
        it->part[--n] = c->own[x];
    }
  it->i = 0;
  it->in_sep = 0;
  it->p = it->n ? it->part[0] : "";
}

/* The next character (as unsigned char), -1 at the end. */
static int
citer_next (struct citer *it)
{
  for (;;)
    {
      if (*it->p)
        return (unsigned char) *it->p++;
      if (it->in_sep)
        {
          it->in_sep = 0;
          it->p = it->part[++it->i];
          continue;
        }
      if (it->i + 1 >= it->n)
        return -1;
      it->in_sep = 1;
      it->p = " || ";
    }
}

/* Entry E's whole text (a forest node: its chain's), malloc'ed; NULL out
   of memory. */
static char *
ent_full (const struct chains *c, const struct dent *e)
{
  struct citer it;
  citer_init (&it, c, e);
  size_t len = 0;
  for (int k = 0; k < it.n; k++)
    len += strlen (it.part[k]) + 4;
  char *s = malloc (len + 1), *q = s;
  if (s == NULL)
    return NULL;
  for (int ch; (ch = citer_next (&it)) >= 0;)
    *q++ = (char) ch;
  *q = '\0';
  return s;
}

/* strcmp of two entries' whole texts, without building them. */
static int
ent_full_cmp (const struct chains *c, const struct dent *a,
              const struct dent *b)
{
  struct citer x, y;
  citer_init (&x, c, a);
  citer_init (&y, c, b);
  for (;;)
    {
      int p = citer_next (&x), q = citer_next (&y);
      if (p != q)
        return p < q ? -1 : 1;
      if (p < 0)
        return 0;
    }
}

/* Whether entry E's whole text contains FILTER (out of memory: yes). */
static int
ent_matches (const struct chains *c, const struct dent *e,
             const char *filter)
{
  if (e->chain == 0)
    return strstr (e->full, filter) != NULL;
  char *s = ent_full (c, e);
  int m = s == NULL || strstr (s, filter) != NULL;
  free (s);
  return m;
}

/* Forest nodes come parents first: a node's key names its parent's chain
   (above), its chain's whole text is built only when shown, filtered or
   sorted by (ent_full; the entries of this list are still in the view's
   order), so memory stays linear in the forest.  Its share is made a fraction
   of all forest items, the product of the view's shares along the chain:
   a node's share of its parent's count jumps to 100% for any new
   continuation however rare, which says nothing about the run.  The
   shortened text is the root's path, how many paths are left out, the
   node's own path. */
static int
collect_forest (struct elist *l, const struct view *v, struct chains *ch)
{
  size_t base = l->n;
  uint32_t *num = malloc ((v->nforest ? v->nforest : 1) * sizeof *num);
  uint32_t *root = malloc ((v->nforest ? v->nforest : 1) * sizeof *root);
  int rc = -1;
  if (num == NULL || root == NULL)
    goto out;
  for (uint64_t i = 0; i < v->nforest; i++)
    {
      const struct osp_vforest *f = view_forest (v, i);
      const char *name = view_str (v, view_fn (v, f->fn)->name);
      if (add_path (l, v, name, f->ids, f->len, i, f->share, f->estimate,
                    f->err95)
          != 0)
        goto out;
      struct dent *e = &l->e[l->n - 1];
      e->cond = f->share;
      /* viewparse.c: a parent comes before its child, depths add up */
      int is_root = f->parent == OSP_VIEW_NO_PARENT;
      const struct dent *p = is_root ? NULL : &l->e[base + f->parent];
      char *key = xasprintf ("%08x\t%s", is_root ? 0u : num[f->parent],
                             e->key);
      if (key == NULL)
        goto out;
      free (e->key);
      e->key = key;
      e->group = strdup (is_root ? "" : p->key);
      num[i] = chain_number (ch, key, is_root ? 0 : num[f->parent], e->full);
      e->chain = num[i];
      root[i] = is_root ? (uint32_t) i : root[f->parent];
      if (e->group == NULL || num[i] == 0)
        goto out;
      if (is_root)
        continue;
      const struct dent *r = &l->e[base + root[i]];
      uint32_t skipped = f->depth - 1; /* between the root and the parent */
      e->share = ospview_sat (p->share * f->share);
      e->err = share_err (e->share, f->estimate, f->err95);
      char *brief = skipped == 0
                        ? xasprintf ("%s || %s", r->brief, e->brief)
                        : xasprintf ("%s || (%u more) || %s", r->brief,
                                     skipped, e->brief);
      free (e->brief);
      e->brief = brief;
      if (!brief)
        goto out;
    }
  rc = 0;
out:
  free (num);
  free (root);
  return rc;
}

/* Functions: the summed share of their paths (BASIS "paths") or of the
   hot subpaths starting in them ("subpaths"), errors in quadrature. */
static int
collect_functions (struct elist *l, const struct view *v, int by_paths)
{
  double *sh = calloc (v->nfns ? v->nfns : 1, sizeof *sh);
  double *e2 = calloc (v->nfns ? v->nfns : 1, sizeof *e2); /* errors */
  double *est = calloc (v->nfns ? v->nfns : 1, sizeof *est);
  double *ee = calloc (v->nfns ? v->nfns : 1, sizeof *ee); /* est's errors */
  int rc = -1;
  if (sh == NULL || e2 == NULL || est == NULL || ee == NULL)
    goto out;
  if (by_paths)
    for (uint64_t i = 0; i < v->npaths; i++)
      {
        const struct osp_vpath *p = view_path (v, i);
        double e = share_err (p->share, p->estimate, p->err95);
        sh[p->fn] = ospview_sat (sh[p->fn] + p->share);
        e2[p->fn] = ospview_sat (hypot (e2[p->fn], e));
        est[p->fn] = ospview_sat (est[p->fn] + p->estimate);
        ee[p->fn] = ospview_sat (hypot (ee[p->fn], p->err95));
      }
  else
    for (uint64_t i = 0; i < v->nsubpaths; i++)
      {
        const struct osp_vsubpath *s = view_subpath (v, i);
        if (s->len == 0)
          continue;
        uint32_t fn = view_block (v, v->ids[s->ids])->fn;
        double e = share_err (s->share, s->estimate, s->err95);
        sh[fn] = ospview_sat (sh[fn] + s->share);
        e2[fn] = ospview_sat (hypot (e2[fn], e));
        est[fn] = ospview_sat (est[fn] + s->estimate);
        ee[fn] = ospview_sat (hypot (ee[fn], s->err95));
      }
  for (uint64_t i = 0; i < v->nfns; i++)
    {
      const struct osp_vfn *f = view_fn (v, i);
      struct dent *e = el_add (l);
      if (e == NULL)
        goto out;
      const char *name = view_str (v, f->name), *file = view_str (v, f->file);
      e->key = xasprintf ("%s\t%s", name, file);
      e->full = f->first_line ? xasprintf ("%s() %s:%u", name, file,
                                           f->first_line)
                              : xasprintf ("%s() %s", name, file);
      e->brief = e->full ? strdup (e->full) : NULL;
      if (!e->key || !e->full || !e->brief)
        goto out;
      e->index = i;
      e->share = sh[i];
      e->err = e2[i]; /* already the root of the sum of squares */
      e->est = est[i];
      e->est_err = ee[i];
    }
  rc = 0;
out:
  free (sh);
  free (e2);
  free (est);
  free (ee);
  return rc;
}

static int
ent_key_cmp (const void *pa, const void *pb)
{
  const struct dent *a = pa, *b = pb;
  int c = strcmp (a->key, b->key);
  if (c == 0) /* the first in the view's order stays */
    c = a->index < b->index ? -1 : a->index > b->index;
  return c;
}

/* Sort by key and add up rows of equal keys. */
static void
merge_dups (struct elist *l)
{
  if (l->n > 1)
    ospview_sort (l->e, l->n, sizeof *l->e, ent_key_cmp);
  size_t m = 0;
  for (size_t i = 0; i < l->n; i++)
    {
      struct dent *e = &l->e[i];
      if (m > 0 && strcmp (l->e[m - 1].key, e->key) == 0)
        {
          struct dent *k = &l->e[m - 1];
          k->share = ospview_sat (k->share + e->share);
          k->cond = ospview_sat (k->cond + e->cond);
          k->err = ospview_sat (hypot (k->err, e->err));
          k->est = ospview_sat (k->est + e->est);
          k->est_err = ospview_sat (hypot (k->est_err, e->est_err));
          k->merged += e->merged;
          dent_free (e);
          continue;
        }
      if (m != i)
        l->e[m] = *e;
      m++;
    }
  l->n = m;
}

/* Ranks by share within each group (forest: siblings; else all).  CTX:
   the entries the sorted indices point into. */
static int
rank_cmp (const void *pa, const void *pb, void *ctx)
{
  const struct dent *ents = ctx;
  const struct dent *a = &ents[*(const size_t *) pa];
  const struct dent *b = &ents[*(const size_t *) pb];
  int c = strcmp (a->group ? a->group : "", b->group ? b->group : "");
  if (c == 0 && a->share != b->share)
    c = a->share > b->share ? -1 : 1;
  if (c == 0)
    c = strcmp (a->key, b->key);
  return c;
}

static int
set_ranks (struct elist *l)
{
  size_t *ord = malloc ((l->n ? l->n : 1) * sizeof *ord);
  if (ord == NULL)
    return -1;
  for (size_t i = 0; i < l->n; i++)
    ord[i] = i;
  ospview_sort_r (ord, l->n, sizeof *ord, rank_cmp, l->e);
  /* equal shares share a rank: 1 + the rows with a larger share */
  uint32_t r = 0, pos = 0;
  const char *g = NULL;
  double last = 0;
  for (size_t i = 0; i < l->n; i++)
    {
      struct dent *e = &l->e[ord[i]];
      const char *eg = e->group ? e->group : "";
      if (g == NULL || strcmp (g, eg) != 0)
        pos = 0;
      pos++;
      if (pos == 1 || e->share != last)
        r = pos;
      g = eg;
      last = e->share;
      e->rank = r;
    }
  free (ord);
  return 0;
}

/* Screen S of both snapshots: the entries, then the matched rows. */
static int
build_screen (struct diff *d, enum scr_screen s)
{
  struct dscr *ds = &d->scr[s];
  const struct view *v0 = d->v[0], *v1 = d->v[1];
  int by_paths = 1;
  if (s == SCR_FUNCTIONS)
    {
      /* a missing OLD (diff_views: nothing before) has what NEW has */
      const struct view *b0 = v0 ? v0 : v1;
      int p0 = b0->npaths > 0, p1 = v1->npaths > 0;
      int s0 = b0->nsubpaths > 0, s1 = v1->nsubpaths > 0;
      by_paths = (p0 && p1) || !(s0 || s1) || ((p0 || p1) && !(s0 && s1));
      ds->basis = by_paths ? "paths" : "subpaths";
    }
  for (int k = 0; k < 2; k++)
    {
      const struct view *v = k ? v1 : v0;
      struct elist l = { 0 };
      int rc = v == NULL         ? 0
               : s == SCR_SUBPATHS ? collect_subpaths (&l, v)
               : s == SCR_PATHS  ? collect_paths (&l, v)
               : s == SCR_FOREST ? collect_forest (&l, v, &d->chains)
                                 : collect_functions (&l, v, by_paths);
      int keyed_len = d->by_len ? s != SCR_FUNCTIONS : s == SCR_SUBPATHS;
      for (size_t i = 0; rc == 0 && keyed_len && i < l.n; i++)
        {
          char *key = xasprintf ("%u\t%s", l.e[i].len, l.e[i].key);
          if (key == NULL)
            rc = -1;
          else
            {
              free (l.e[i].key);
              l.e[i].key = key;
            }
        }
      if (rc == 0)
        {
          merge_dups (&l);
          rc = set_ranks (&l);
        }
      ds->e[k] = l.e;
      ds->ne[k] = l.n;
      if (rc != 0)
        return -1;
    }
  /* merge-join the two key-sorted lists */
  ds->rows = calloc (ds->ne[0] + ds->ne[1] + 1, sizeof *ds->rows);
  if (ds->rows == NULL)
    return -1;
  size_t i = 0, j = 0;
  while (i < ds->ne[0] || j < ds->ne[1])
    {
      const struct dent *a = i < ds->ne[0] ? &ds->e[0][i] : NULL;
      const struct dent *b = j < ds->ne[1] ? &ds->e[1][j] : NULL;
      int c = a == NULL ? 1 : b == NULL ? -1 : strcmp (a->key, b->key);
      struct drow *r = &ds->rows[ds->nrows];
      memset (r, 0, sizeof *r);
      if (c <= 0)
        r->d[0] = &ds->e[0][i++];
      if (c >= 0)
        r->d[1] = &ds->e[1][j++];
      double s0 = r->d[0] ? r->d[0]->share : 0.0;
      double s1 = r->d[1] ? r->d[1]->share : 0.0;
      double e0 = r->d[0] ? r->d[0]->err : 0.0;
      double e1 = r->d[1] ? r->d[1]->err : 0.0;
      /* functions: only those with a share somewhere */
      if (s == SCR_FUNCTIONS && s0 == 0 && s1 == 0)
        continue;
      r->delta = ospview_sat (s1 - s0);
      r->err = ospview_sat (hypot (e0, e1));
      r->within = fabs (r->delta) < r->err;
      r->sec = r->d[0] && r->d[1] ? SEC_BOTH : r->d[0] ? SEC_OLD : SEC_NEW;
      r->hkey = fnv (fnv (OSP_FNV_BASIS, scr_screen_name (s)),
                     (r->d[1] ? r->d[1] : r->d[0])->key);
      ds->nsec[r->sec]++;
      ds->nrows++;
    }
  return 0;
}

/* ---- loading ------------------------------------------------------------- */

static void
diff_free (struct diff *d)
{
  for (int s = 0; s < SCR_NSCREENS; s++)
    dscr_free (&d->scr[s]);
  chains_free (&d->chains);
  snap_free (&d->snap[0]);
  snap_free (&d->snap[1]);
}

/* 0, 1 with the message printed (a file), -1 out of memory. */
static int
diff_load (struct diff *d, const char *old_path, const char *new_path,
           unsigned screens)
{
  memset (d, 0, sizeof *d);
  d->path[0] = old_path;
  d->path[1] = new_path;
  d->screens = screens;
  char err[1024];
  for (int k = 0; k < 2; k++)
    {
      if (snap_load (&d->snap[k], d->path[k], err, sizeof err) != 0)
        {
          ospview_error ("%s", err);
          return 1; /* diff_free frees the other one */
        }
      d->v[k] = &d->snap[k].view;
    }
  d->by_len = d->between = one_process (d);
  for (int s = 0; s < SCR_NSCREENS; s++)
    if (build_screen (d, (enum scr_screen) s) != 0)
      return -1;
  return 0;
}

/* ---- the matching for others (recent.c) ---------------------------------- */

struct diff *
diff_views (const struct view *old, const struct view *new, unsigned screens)
{
  struct diff *d = calloc (1, sizeof *d);
  if (d == NULL)
    return NULL;
  d->v[0] = old;
  d->v[1] = new;
  d->path[0] = d->path[1] = "";
  d->screens = screens;
  d->by_len = 1;
  for (int s = 0; s < SCR_NSCREENS; s++)
    if ((screens >> s & 1) && build_screen (d, (enum scr_screen) s) != 0)
      {
        diff_release (d);
        return NULL;
      }
  return d;
}

void
diff_release (struct diff *d)
{
  if (d == NULL)
    return;
  diff_free (d);
  free (d);
}

size_t
diff_npairs (const struct diff *d, enum scr_screen s)
{
  return d->scr[s].nrows;
}

void
diff_pair (const struct diff *d, enum scr_screen s, size_t i,
           struct diff_pair *p)
{
  const struct drow *r = &d->scr[s].rows[i];
  const struct dent *e = r->d[1] ? r->d[1] : r->d[0];
  memset (p, 0, sizeof *p);
  p->key = r->hkey;
  p->index = e->index;
  p->len = e->len;
  p->brief = e->brief;
  for (int k = 0; k < 2; k++)
    {
      p->at[k] = DIFF_NO_AT;
      if (r->d[k])
        {
          p->have[k] = 1;
          p->est[k] = r->d[k]->est;
          p->err[k] = r->d[k]->est_err;
          if (r->d[k]->merged == 1)
            p->at[k] = r->d[k]->index;
        }
    }
}

int
diff_pair_matches (const struct diff *d, enum scr_screen s, size_t i,
                   const char *filter)
{
  if (filter == NULL || *filter == '\0')
    return 1;
  const struct drow *r = &d->scr[s].rows[i];
  return ent_matches (&d->chains, r->d[1] ? r->d[1] : r->d[0], filter);
}

const char *
diff_basis (const struct diff *d)
{
  return d->scr[SCR_FUNCTIONS].basis ? d->scr[SCR_FUNCTIONS].basis : "paths";
}

/* ---- tables -------------------------------------------------------------- */

/* The sort keys a diff screen understands: rank (the diff's own order:
   |delta|, the one-sided sections by share), share (NEW's, OLD's for rows
   only there), length (blocks; not for functions), name (the text). */
static int
diff_sort_ok (enum scr_screen s, enum scr_sort k)
{
  return k == SORT_RANK || k == SORT_SHARE || k == SORT_NAME
         || (k == SORT_LENGTH && s != SCR_FUNCTIONS);
}

static const char *
diff_sort_name (enum scr_sort k)
{
  return k == SORT_RANK ? "|delta|" : scr_sort_name (k);
}

/* How drow_cmp orders a section's rows. */
struct dsort
{
  enum scr_sort key;
  int rev;
  const struct chains *chains;
};

static double
row_share (const struct drow *r)
{
  return r->d[1] ? r->d[1]->share : r->d[0]->share;
}

static const struct dent *
row_ent (const struct drow *r)
{
  return r->d[1] ? r->d[1] : r->d[0];
}

static int
drow_cmp (const void *pa, const void *pb, void *ctx)
{
  const struct dsort *ds = ctx;
  const struct drow *a = *(const struct drow *const *) pa;
  const struct drow *b = *(const struct drow *const *) pb;
  int c = 0;
  double x = 0, y = 0;
  switch (ds->key)
    {
    case SORT_NAME:
      c = ent_full_cmp (ds->chains, row_ent (a), row_ent (b));
      break;
    case SORT_LENGTH:
      x = row_ent (a)->len;
      y = row_ent (b)->len;
      break;
    case SORT_SHARE:
      x = row_share (a);
      y = row_share (b);
      break;
    default: /* rank */
      x = a->sec == SEC_BOTH ? fabs (a->delta) : row_share (a);
      y = b->sec == SEC_BOTH ? fabs (b->delta) : row_share (b);
    }
  if (c == 0 && x != y)
    c = x > y ? -1 : 1;
  if (ds->rev)
    c = -c;
  if (c == 0) /* deterministic: by key */
    c = strcmp (row_ent (a)->key, row_ent (b)->key);
  return c;
}

static void
pct (char *buf, size_t n, const struct dent *e)
{
  char p[OSPVIEW_NUM];
  if (e)
    snprintf (buf, n, "%9s", ospview_pct (p, sizeof p, e->share, 2));
  else
    snprintf (buf, n, "%9s", "-");
}

static void
rank_text (char *buf, size_t n, const struct drow *r)
{
  if (!r->d[0])
    snprintf (buf, n, "new");
  else if (!r->d[1])
    snprintf (buf, n, "gone");
  else if (r->d[0]->rank == r->d[1]->rank)
    snprintf (buf, n, "=");
  else
    snprintf (buf, n, "%+lld",
              (long long) r->d[0]->rank - (long long) r->d[1]->rank);
}

static void
ratio_text (char *buf, size_t n, const struct drow *r)
{
  if (!r->d[0] || !r->d[1] || r->d[0]->share <= 0)
    snprintf (buf, n, "-");
  else
    {
      double q = r->d[1]->share / r->d[0]->share;
      if (q >= 99999.5)
        snprintf (buf, n, ">99999");
      else
        snprintf (buf, n, "%.2f", q);
    }
}

/* A delta in points with its sign, "0.00" when it rounds to zero. */
static void
pp_text (char *buf, size_t n, double delta)
{
  double x = ospview_sat (100.0 * delta);
  char p[OSPVIEW_NUM];
  if (fabs (x) < 0.005)
    snprintf (buf, n, "0.00");
  else
    snprintf (buf, n, "%s%s", x > 0 ? "+" : "", ospview_num (p, sizeof p, x,
                                                              2));
}

#define HEADER_FMT "%9s %9s %10s  %6s %8s %5s  %s"

static char *
row_text (const struct diff *d, const struct drow *r, int full)
{
  char b0[32], b1[32], ra[32], rk[32];
  pct (b0, sizeof b0, r->d[0]);
  pct (b1, sizeof b1, r->d[1]);
  ratio_text (ra, sizeof ra, r);
  rank_text (rk, sizeof rk, r);
  const struct dent *e = row_ent (r);
  char dl[32], er[OSPVIEW_NUM];
  pp_text (dl, sizeof dl, r->delta);
  ospview_num (er, sizeof er, 100.0 * r->err, 2);
  char *whole = full ? ent_full (&d->chains, e) : NULL;
  char *s = full && whole == NULL
                ? NULL
                : xasprintf ("%s %s %8spp%c %6s %8s %5s  %s", b0, b1, dl,
                             r->within ? '~' : ' ', er, ra, rk,
                             full ? whole : e->brief);
  free (whole);
  return s;
}

static const char *const sec_title[NSEC]
    = { "in both", "only in OLD", "only in NEW" };

static int
table_add (struct scr_table *t, char *text, uint64_t key, uint64_t index)
{
  if (text == NULL)
    return -1;
  if (ospview_grow (&t->rows, &t->cap, t->n + 1, sizeof *t->rows, 64) != 0)
    {
      free (text);
      return -1;
    }
  struct scr_row *r = &t->rows[t->n++];
  memset (r, 0, sizeof *r);
  r->text = text;
  r->key = key;
  r->index = index;
  return 0;
}

static const char *const screen_what[SCR_NSCREENS]
    = { "subpaths", "Ball-Larus paths",
        "forest nodes (share of all forest items)", "functions" };

/* Screen S as a table: the rows in both, then a separator row and the
   rows only in OLD, then only in NEW (separator rows have index
   NO_INDEX). */
static int
diff_table (const struct diff *d, enum scr_screen s,
            const struct scr_opts *o, struct scr_table *t)
{
  memset (t, 0, sizeof *t);
  const struct dscr *ds = &d->scr[s];
  int filtering = o->filter && *o->filter;
  const struct drow **sel = calloc (ds->nrows + 1, sizeof *sel);
  if (sel == NULL)
    return -1;
  size_t m[NSEC] = { 0 }, start[NSEC + 1] = { 0 };
  for (size_t i = 0; i < ds->nrows; i++)
    if (!filtering
        || ent_matches (&d->chains, row_ent (&ds->rows[i]), o->filter))
      m[ds->rows[i].sec]++;
  start[1] = m[0];
  start[2] = m[0] + m[1];
  size_t fill[NSEC] = { 0 };
  for (size_t i = 0; i < ds->nrows; i++)
    {
      const struct drow *r = &ds->rows[i];
      if (!filtering || ent_matches (&d->chains, row_ent (r), o->filter))
        sel[start[r->sec] + fill[r->sec]++] = r;
    }
  struct dsort order = { diff_sort_ok (s, o->sort) ? o->sort : SORT_RANK,
                         o->reverse, &d->chains };
  for (int k = 0; k < NSEC; k++)
    if (m[k] > 1)
      ospview_sort_r (sel + start[k], m[k], sizeof *sel, drow_cmp, &order);

  int rc = -1;
  t->header = xasprintf (HEADER_FMT, "baseline", "new", "delta", "+/-95",
                         "ratio", "rank",
                         s == SCR_FUNCTIONS ? "function" : "path");
  if (t->header == NULL)
    goto out;
  t->path_col = strlen (t->header) - (s == SCR_FUNCTIONS ? 8 : 4);
  t->total = ds->nrows;
  size_t shown[NSEC] = { 0 };
  for (int k = 0; k < NSEC; k++)
    {
      if (k > 0 && m[k] > 0)
        {
          char *sep = xasprintf ("--- %s: %zu row%s%s ---", sec_title[k],
                                 m[k], m[k] == 1 ? "" : "s",
                                 o->top && m[k] > o->top ? ", the first "
                                                           "shown"
                                                         : "");
          if (table_add (t, sep, fnv (0x5ec, sec_title[k]), NO_INDEX) != 0)
            goto out;
        }
      for (size_t i = 0; i < m[k] && (!o->top || i < o->top); i++)
        {
          const struct drow *r = sel[start[k] + i];
          if (table_add (t, row_text (d, r, o->full_paths), r->hkey,
                         (uint64_t) (r - ds->rows))
              != 0)
            goto out;
          shown[k]++;
        }
    }
  char what[160];
  if (s == SCR_FUNCTIONS)
    snprintf (what, sizeof what, "functions (share of their %s)",
              ds->basis);
  else
    snprintf (what, sizeof what, "%s", screen_what[s]);
  char none[96] = "";
  if ((ds->ne[0] == 0) != (ds->ne[1] == 0) && s != SCR_FUNCTIONS)
    snprintf (none, sizeof none, "; %s has none (other options?)",
              ds->ne[0] ? "NEW" : "OLD");
  char filt[TUI_FILTER_MAX + 48] = "";
  if (filtering)
    snprintf (filt, sizeof filt, " matching \"%s\"", o->filter);
  t->title = xasprintf ("%s diff (%zu in both, %zu only in OLD, %zu only in "
                        "NEW%s%s; by %s%s)",
                        what, m[0], m[1], m[2], filt, none,
                        diff_sort_name (order.key),
                        order.rev ? ", reversed" : "");
  if (t->title == NULL)
    goto out;
  if (t->n == 0)
    {
      t->note = xasprintf ("%s", ds->nrows == 0
                                     ? "no rows in either snapshot"
                                     : "no row matches the filter");
      if (t->note == NULL)
        goto out;
    }
  rc = 0;
out:
  free (sel);
  if (rc != 0)
    scr_table_free (t);
  return rc;
}

/* ---- the header ---------------------------------------------------------- */

static const char *
utc (char *buf, size_t n, uint64_t ns)
{
  time_t t = (time_t) (ns / 1000000000u);
  struct tm tm;
  if (ns == 0 || gmtime_r (&t, &tm) == NULL
      || strftime (buf, n, "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
    snprintf (buf, n, "?");
  return buf;
}

static char *
side_line (const struct diff *d, int k)
{
  const struct view *v = &d->snap[k].view;
  const char *prog = view_str (v, v->run.program);
  const char *args = view_str (v, v->run.args);
  char when[64];
  uint64_t estimated = 0;
  view_stat_u64 (v, "path_ends_estimated", &estimated);
  return xasprintf ("%s %s: %s%s%s%s  pid %lld  taken %s%s  blocks seen "
                    "%llu  path ends %s%llu",
                    side_name[k], d->path[k], *prog ? prog : "?",
                    *args ? " (" : "", args, *args ? ")" : "",
                    (long long) v->run.pid,
                    utc (when, sizeof when, v->hdr->time_ns),
                    v->run.exited ? " at exit" : "",
                    (unsigned long long) v->run.blocks_seen,
                    estimated ? "~" : "",
                    (unsigned long long) v->run.path_ends);
}

/* NULL when both are of one program (by basename). */
static char *
warning_line (const struct diff *d)
{
  const struct view *v0 = &d->snap[0].view, *v1 = &d->snap[1].view;
  const char *p0 = base_name (view_str (v0, v0->run.program));
  const char *p1 = base_name (view_str (v1, v1->run.program));
  if (strcmp (p0, p1) == 0)
    return NULL;
  return xasprintf ("warning: different programs (%s, %s): compared by "
                    "function names and source lines anyway",
                    *p0 ? p0 : "?", *p1 ? p1 : "?");
}

/* Whether OLD and NEW are views of one process, NEW the later: then what
   ran between them is NEW's estimates minus OLD's (recent.c), which the
   text output prints before each comparison. */
static int
one_process (const struct diff *d)
{
  const struct view *v0 = d->v[0], *v1 = d->v[1];
  return v0->run.pid == v1->run.pid && v0->run.start_ns == v1->run.start_ns
         && v0->run.instance_id == v1->run.instance_id
         && v1->hdr->time_ns > v0->hdr->time_ns;
}

static const char between_what[] = "that ran between OLD and NEW, in";

static char *
between_line (const struct diff *d)
{
  const struct view *v0 = d->v[0], *v1 = d->v[1];
  return xasprintf ("one process (pid %lld), NEW %.1fs after OLD: \"ran "
                    "between\" tables count what it did in between (NEW - "
                    "OLD, with the 95%% error of the samples in between, "
                    "and per second; ~ within it; UI: R for the shares "
                    "compared)",
                    (long long) v1->run.pid,
                    (double) (v1->hdr->time_ns - v0->hdr->time_ns) / 1e9);
}

static const char legend[]
    = "delta = NEW - OLD share in percentage points (pp), +/-95 its error, "
      "~ within it; rank +N: N places up";

/* The status lines: OLD, NEW, then the warning and (BOTH, or without a
   warning) the legend, and for two views of one process what the "ran
   between" tables are. */
static int
diff_status (const struct diff *d, struct scr_table *t, int both)
{
  memset (t, 0, sizeof *t);
  char *w = warning_line (d);
  int rc = table_add (t, side_line (d, 0), 0, NO_INDEX);
  if (rc == 0)
    rc = table_add (t, side_line (d, 1), 0, NO_INDEX);
  if (rc == 0 && w)
    {
      rc = table_add (t, w, 0, NO_INDEX);
      w = NULL;
    }
  /* the UI has room for three lines: there a diff of one process says
     what its "ran between" tables are instead of the legend */
  int one = one_process (d);
  if (rc == 0 && (both || (t->n < 3 && !one)))
    rc = table_add (t, strdup (legend), 0, NO_INDEX);
  if (rc == 0 && one && (both || t->n < 3))
    rc = table_add (t, between_line (d), 0, NO_INDEX);
  free (w);
  if (rc != 0)
    scr_table_free (t);
  return rc;
}

/* ---- --fail-above -------------------------------------------------------- */

struct trig
{
  enum scr_screen s;
  const struct drow *r;
};

static int
trig_cmp (const void *pa, const void *pb)
{
  const struct trig *a = pa, *b = pb;
  if (a->r->delta != b->r->delta)
    return a->r->delta > b->r->delta ? -1 : 1;
  if (a->s != b->s)
    return a->s < b->s ? -1 : 1;
  return strcmp (row_ent (a->r)->key, row_ent (b->r)->key);
}

/* Rows of the compared screens (after the filter) in both or only in NEW
   whose share grew by more than PP points: named on stderr; 3 if any. */
static int
check_fail_above (const struct diff *d, const char *filter, double pp)
{
  size_t n = 0, cap = 0;
  struct trig *v = NULL;
  for (int s = 0; s < SCR_NSCREENS; s++)
    {
      if (!(d->screens >> s & 1))
        continue;
      const struct dscr *ds = &d->scr[s];
      for (size_t i = 0; i < ds->nrows; i++)
        {
          const struct drow *r = &ds->rows[i];
          if (r->sec == SEC_OLD || !(100.0 * r->delta > pp)
              || (filter && *filter
                  && !ent_matches (&d->chains, row_ent (r), filter)))
            continue;
          if (ospview_grow (&v, &cap, n + 1, sizeof *v, 16) != 0)
            {
              free (v);
              ospview_error ("out of memory");
              return 1;
            }
          v[n++] = (struct trig) { (enum scr_screen) s, r };
        }
    }
  if (n > 1)
    ospview_sort (v, n, sizeof *v, trig_cmp);
  for (size_t i = 0; i < n && i < FAIL_LINES; i++)
    {
      const struct drow *r = v[i].r;
      char was[OSPVIEW_NUM], now[OSPVIEW_NUM], dl[OSPVIEW_NUM + 2];
      if (r->d[0])
        ospview_pct (was, sizeof was, r->d[0]->share, 2);
      else
        snprintf (was, sizeof was, "none");
      pp_text (dl, sizeof dl, r->delta);
      ospview_error ("--fail-above=%g: %s: %spp (%s -> %s%s): %s", pp,
                     scr_screen_name (v[i].s), dl, was,
                     ospview_pct (now, sizeof now, r->d[1]->share, 2),
                     r->within ? ", within error" : "", row_ent (r)->brief);
    }
  if (n > FAIL_LINES)
    ospview_error ("--fail-above=%g: and %zu more rows", pp,
             n - FAIL_LINES);
  free (v);
  return n ? 3 : 0;
}

/* ---- text ---------------------------------------------------------------- */

/* Every line holds names, programs or arguments from the snapshots (and
   the filter the user typed): through the sanitiser, like batch.c. */
static void
line (const char *s)
{
  ospview_puts (stdout, s);
  putchar ('\n');
}

static void
print_table (const struct scr_table *t)
{
  putchar ('\n');
  line (t->title);
  if (t->n == 0)
    {
      fputs ("  (", stdout);
      ospview_puts (stdout, t->note ? t->note : "nothing to show");
      fputs (")\n", stdout);
      return;
    }
  line (t->header);
  for (size_t i = 0; i < t->n; i++)
    line (t->rows[i].text);
}

static int
print_text (const struct diff *d, const struct ospview_opts *o)
{
  struct scr_table t;
  if (diff_status (d, &t, 1) != 0)
    return -1;
  for (size_t i = 0; i < t.n; i++)
    line (t.rows[i].text);
  scr_table_free (&t);
  struct scr_opts so;
  memset (&so, 0, sizeof so);
  so.filter = o->filter;
  so.sort = o->sort;
  so.reverse = o->reverse;
  so.top = o->top;
  for (int s = 0; s < SCR_NSCREENS; s++)
    {
      if (!(d->screens >> s & 1))
        continue;
      if (one_process (d))
        {
          if (recent_table_pairs (&t, d, d->v[0], d->v[1], (enum scr_screen) s,
                                  &so, between_what)
              != 0)
            return -1;
          print_table (&t);
          scr_table_free (&t);
        }
      if (diff_table (d, (enum scr_screen) s, &so, &t) != 0)
        return -1;
      putchar ('\n');
      line (t.title);
      if (t.n == 0)
        {
          fputs ("  (", stdout);
          ospview_puts (stdout, t.note ? t.note : "nothing to show");
          fputs (")\n", stdout);
        }
      else
        {
          line (t.header);
          for (size_t i = 0; i < t.n; i++)
            line (t.rows[i].text);
        }
      scr_table_free (&t);
    }
  return 0;
}

/* ---- the terminal UI's provider ------------------------------------------ */

static int
prov_build (void *ctx, enum scr_screen s, const struct scr_opts *o,
            struct scr_table *t)
{
  const struct diff *d = ctx;
  if (d->between)
    return recent_table_pairs (t, d, d->v[0], d->v[1], s, o, between_what);
  return diff_table (ctx, s, o, t);
}

static const char *
prov_toggle (void *ctx)
{
  struct diff *d = ctx;
  if (!one_process (d))
    return NULL;
  d->between = !d->between;
  return d->between ? "what ran between OLD and NEW (NEW - OLD estimates)"
                    : "the shares compared";
}

static int
prov_status (void *ctx, struct scr_table *t)
{
  return diff_status (ctx, t, 0);
}

static void
detail_side (const struct diff *d, enum scr_screen s, int k,
             const struct dent *e, tui_detail_fn add, void *sink)
{
  char line[512];
  if (e == NULL)
    {
      snprintf (line, sizeof line, "%s %s: not there", side_name[k],
                d->path[k]);
      add (sink, 1, line);
      return;
    }
  char a[OSPVIEW_NUM], b[OSPVIEW_NUM], c[OSPVIEW_NUM], x[OSPVIEW_NUM];
  int n = snprintf (line, sizeof line, "%s: share %s +/- %spp, rank %u",
                    side_name[k], ospview_pct (a, sizeof a, e->share, 2),
                    ospview_num (b, sizeof b, 100.0 * e->err, 2), e->rank);
  ospview_num (c, sizeof c, e->est, 0);
  ospview_num (x, sizeof x, e->est_err, 0);
  if (s == SCR_FUNCTIONS)
    snprintf (line + n, sizeof line - (size_t) n, ", estimate %s", c);
  else if (s == SCR_FOREST)
    snprintf (line + n, sizeof line - (size_t) n,
              ", %s of its parent's, estimate %s +/- %s",
              ospview_pct (a, sizeof a, e->cond, 2), c, x);
  else
    snprintf (line + n, sizeof line - (size_t) n,
              ", estimate %s +/- %s, %u blocks%s", c, x, e->len,
              e->merged > 1 ? " (rows with the same text added)" : "");
  add (sink, 1, line);
}

/* The path in full, a step per line (a forest node: its chain). */
static void
detail_steps (const char *text, tui_detail_fn add, void *sink)
{
  char *copy = strdup (text);
  if (copy == NULL)
    return;
  char *p = copy;
  int first = 1;
  while (p)
    {
      char *arrow = strstr (p, " -> ");
      char *chain = strstr (p, " || ");
      char *cut = arrow && (!chain || arrow < chain) ? arrow : chain;
      int is_chain = cut && cut == chain;
      if (cut)
        *cut = '\0';
      char line[1024];
      snprintf (line, sizeof line, "  %s%s", first ? "   " : "-> ", p);
      add (sink, 0, line);
      first = is_chain;
      if (is_chain)
        add (sink, 0, "  then:");
      p = cut ? cut + 4 : NULL;
    }
  free (copy);
}

static void
prov_detail (void *ctx, enum scr_screen s, const struct scr_row *row,
             tui_detail_fn add, void *sink)
{
  const struct diff *d = ctx;
  const struct dscr *ds = &d->scr[s];
  if (row->index == NO_INDEX || row->index >= ds->nrows)
    {
      add (sink, 1, "the rows below are only in one of the snapshots");
      return;
    }
  const struct drow *r = &ds->rows[row->index];
  char line[256], rk[32], ra[32], dl[OSPVIEW_NUM + 2], er[OSPVIEW_NUM];
  rank_text (rk, sizeof rk, r);
  ratio_text (ra, sizeof ra, r);
  pp_text (dl, sizeof dl, r->delta);
  snprintf (line, sizeof line, "delta %spp +/- %spp (%s), ratio %s, "
            "rank %s", dl, ospview_num (er, sizeof er, 100.0 * r->err, 2),
            r->err == 0 ? "exact"
            : r->within ? "within error"
                        : "outside the error",
            ra, rk);
  add (sink, 1, line);
  detail_side (d, s, 0, r->d[0], add, sink);
  detail_side (d, s, 1, r->d[1], add, sink);
  add (sink, 1, s == SCR_FUNCTIONS ? "function:"
                : s == SCR_FOREST  ? "forest node (from its root):"
                                   : "path:");
  char *whole = ent_full (&d->chains, row_ent (r));
  if (whole != NULL)
    detail_steps (whole, add, sink);
  free (whole);
}

/* ---- entry --------------------------------------------------------------- */

int
diff_main (const char *old_path, const char *new_path,
           const struct ospview_opts *o, double fail_above)
{
  struct diff d;
  unsigned screens = o->screens ? o->screens : (1u << SCR_NSCREENS) - 1;
  int rc = diff_load (&d, old_path, new_path, screens);
  if (rc != 0)
    {
      if (rc < 0)
        ospview_error ("out of memory");
      diff_free (&d);
      return 1;
    }
  if (o->count > 0 || !isatty (STDOUT_FILENO))
    {
      rc = print_text (&d, o);
      if (rc != 0)
        ospview_error ("out of memory");
      if (fflush (stdout) != 0 || ferror (stdout))
        rc = -1;
      rc = rc != 0 ? 1 : 0;
    }
  else
    {
      static const struct tui_provider prov_ops = {
        NULL, prov_build, prov_status, prov_detail, diff_sort_ok,
        diff_sort_name, "DIFF", prov_toggle
      };
      struct tui_provider p = prov_ops;
      p.ctx = &d;
      rc = tui_run_tables (&p, o);
    }
  if (rc == 0 && fail_above >= 0)
    rc = check_fail_above (&d, o->filter, fail_above);
  diff_free (&d);
  return rc;
}
