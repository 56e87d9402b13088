/* SPDX-License-Identifier: GPL-3.0-or-later */
/* screens.c - the viewer's screens as rows of text.
 *
 * Why a separate layer: the batch output (-b) and the ncurses UI must show
 * the same thing, and the UI should only have to draw lines, move a
 * cursor and keep a few choices (screen, sort key, filter, which forest
 * nodes are open).  So everything that turns a validated view (viewparse.c)
 * into text lives here: the column layouts, paths decoded to function and
 * file:line exactly as the runtime's text report writes them (compact
 * steps; see libosprt/output/report-subpaths.c), filtering, sorting, the forest
 * as an indented tree with open and closed nodes, and the status lines.
 *
 * Every row carries a key that stays the same for the same subpath, path,
 * forest node or function from one view of a process to the next (a hash
 * of the runtime's function ids, block numbers and path ids, never of
 * positions), so that the UI can keep the cursor on a row and remember
 * which forest nodes the user opened while the ranking changes.
 */
#define _GNU_SOURCE
#include "ospview.h"
#include "steps.h"
#include "workshare.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- names ----------------------------------------------------------- */

static const char *const screen_names[SCR_NSCREENS]
    = { "subpaths", "paths", "forest", "functions" };
static const char *const sort_names[SORT_NKEYS]
    = { "rank",   "work",     "execs", "estimate", "share",
        "length", "branches", "calls", "name" };

const char *
scr_screen_name (enum scr_screen s)
{
  return (unsigned) s < SCR_NSCREENS ? screen_names[s] : "?";
}

int
scr_screen_by_name (const char *name)
{
  for (int i = 0; i < SCR_NSCREENS; i++)
    if (strcmp (name, screen_names[i]) == 0)
      return i;
  return -1;
}

const char *
scr_sort_name (enum scr_sort k)
{
  return (unsigned) k < SORT_NKEYS ? sort_names[k] : "?";
}

int
scr_sort_by_name (const char *name)
{
  for (int i = 0; i < SORT_NKEYS; i++)
    if (strcmp (name, sort_names[i]) == 0)
      return i;
  return -1;
}

int
scr_sort_ok (enum scr_screen s, enum scr_sort k)
{
  static const unsigned ok[SCR_NSCREENS] = {
    [SCR_SUBPATHS] = 1u << SORT_RANK | 1u << SORT_WORK | 1u << SORT_ESTIMATE
                     | 1u << SORT_SHARE | 1u << SORT_LENGTH | 1u << SORT_NAME,
    [SCR_PATHS] = 1u << SORT_RANK | 1u << SORT_WORK | 1u << SORT_ESTIMATE
                  | 1u << SORT_SHARE | 1u << SORT_LENGTH | 1u << SORT_BRANCHES
                  | 1u << SORT_NAME,
    [SCR_FOREST] = 1u << SORT_RANK | 1u << SORT_WORK | 1u << SORT_ESTIMATE
                   | 1u << SORT_SHARE | 1u << SORT_NAME,
    [SCR_FUNCTIONS] = 1u << SORT_RANK | 1u << SORT_WORK | 1u << SORT_EXECS
                      | 1u << SORT_CALLS | 1u << SORT_NAME,
  };
  return (unsigned) s < SCR_NSCREENS && (unsigned) k < SORT_NKEYS
         && (ok[s] >> k & 1);
}

/* A number or a percentage for a row, by the rule above (a compound
   literal lives until the end of the enclosing block: the whole row). */
#define NUM(x, prec) ospview_num ((char[OSPVIEW_NUM]) { 0 }, OSPVIEW_NUM, \
                                  (x), (prec))
#define PCT(x) ospview_pct ((char[OSPVIEW_NUM]) { 0 }, OSPVIEW_NUM, (x), 2)

/* ---- key sets -------------------------------------------------------- */

static size_t
keyset_find (const struct scr_keyset *set, uint64_t key)
{
  size_t lo = 0, hi = set->n;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      if (set->keys[mid] < key)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

int
scr_keyset_has (const struct scr_keyset *set, uint64_t key)
{
  if (set == NULL || set->n == 0)
    return 0;
  size_t i = keyset_find (set, key);
  return i < set->n && set->keys[i] == key;
}

int
scr_keyset_toggle (struct scr_keyset *set, uint64_t key)
{
  size_t i = keyset_find (set, key);
  if (i < set->n && set->keys[i] == key)
    {
      memmove (&set->keys[i], &set->keys[i + 1],
               (set->n - i - 1) * sizeof *set->keys);
      set->n--;
      return 0;
    }
  if (ospview_grow (&set->keys, &set->cap, set->n + 1, sizeof *set->keys,
                    16)
      != 0)
    return -1;
  memmove (&set->keys[i + 1], &set->keys[i],
           (set->n - i) * sizeof *set->keys);
  set->keys[i] = key;
  set->n++;
  return 0;
}

void
scr_keyset_free (struct scr_keyset *set)
{
  free (set->keys);
  memset (set, 0, sizeof *set);
}

/* ---- a growing string ------------------------------------------------ */

struct sb
{
  char *s;
  size_t n, cap;
  int oom;
};

static void sb_printf (struct sb *b, const char *fmt, ...)
    __attribute__ ((format (printf, 2, 3)));

static void
sb_printf (struct sb *b, const char *fmt, ...)
{
  if (b->oom)
    return;
  for (;;)
    {
      va_list ap;
      va_start (ap, fmt);
      size_t room = b->cap - b->n;
      int k = vsnprintf (b->s ? b->s + b->n : NULL, room, fmt, ap);
      va_end (ap);
      if (k < 0)
        {
          b->oom = 1;
          return;
        }
      if ((size_t) k < room)
        {
          b->n += (size_t) k;
          return;
        }
      size_t ncap = b->cap ? b->cap : 128;
      while (ncap - b->n <= (size_t) k)
        ncap *= 2;
      char *ns = realloc (b->s, ncap);
      if (ns == NULL)
        {
          b->oom = 1;
          return;
        }
      b->s = ns;
      b->cap = ncap;
    }
}

static void
sb_puts (struct sb *b, const char *s)
{
  sb_printf (b, "%s", s);
}

/* Take the string out (never NULL unless out of memory). */
static char *
sb_take (struct sb *b)
{
  if (b->s == NULL && !b->oom)
    sb_puts (b, "");
  char *s = b->oom ? NULL : b->s;
  if (b->oom)
    free (b->s);
  memset (b, 0, sizeof *b);
  return s;
}

/* ---- keys ------------------------------------------------------------ */

static uint64_t
mix (uint64_t h, uint64_t x)
{
  /* splitmix64's finaliser over h ^ x: cheap and well spread */
  return ospview_hash_mix (h ^ (x + 0x9e3779b97f4a7c15ull));
}

/* A block as the runtime names it: (function id, block number). */
static uint64_t
block_key (const struct view *v, uint32_t bi)
{
  const struct osp_vblock *b = view_block (v, bi);
  return (uint64_t) view_fn (v, b->fn)->id << 32 | b->block;
}

static uint64_t
run_key (const struct view *v, uint64_t seed, uint64_t ids, uint32_t len)
{
  uint64_t h = mix (seed, len);
  for (uint32_t k = 0; k < len; k++)
    h = mix (h, block_key (v, v->ids[ids + k]));
  return h;
}

/* ---- paths as text (the runtime's text report form, compacted) ------- */

/* Consecutive blocks of one function whose lines continue each other are
   one step "file:first-last"; the function's name is shown when it
   changes: the runtime's text report's rule (libosprt/format/steps.h) on
   the view's data.  Three things make a row shorter than the report's:
   the file is its base name (the detail pane names the whole path); a
   step ends where its first block comes again (a loop's next iteration, a
   recursive call), so that passes are counted instead of melted into one;
   and a run of equal steps, or of equal cycles of up to CYCLE_MAX steps
   (a loop body that spans lines with a gap), is written once with its
   number of passes: "fib() prog.c:3 x4", "(loop() a.c:3 -> a.c:5-6) x8".
   A length-8 subpath of a one-line recursive function so no longer reads
   like its length-2, 4 and 16 relatives. */

#define CYCLE_MAX 4

static const char *
base_name (const char *file)
{
  const char *s = strrchr (file, '/');
  return s && s[1] ? s + 1 : file;
}

static int
step_eq (const struct osp_step *a, const struct osp_step *b)
{
  return a->fi == b->fi && a->first == b->first && a->last == b->last;
}

/* The group starting at step I of the N at ST: *PERIOD steps repeated
   *REPS times (the period that covers the most, the shortest of equals;
   1 x 1 when nothing repeats). */
static void
group_at (const struct osp_step *st, size_t n, size_t i, size_t *period,
          size_t *reps)
{
  *period = 1;
  *reps = 1;
  for (size_t p = 1; p <= CYCLE_MAX && i + 2 * p <= n; p++)
    {
      size_t r = 1;
      while (i + (r + 1) * p <= n)
        {
          size_t k = 0;
          while (k < p && step_eq (&st[i + k], &st[i + r * p + k]))
            k++;
          if (k < p)
            break;
          r++;
        }
      if (r > 1 && p * r > *period * *reps)
        {
          *period = p;
          *reps = r;
        }
    }
}

static void
put_step (struct sb *b, const struct view *v, const struct osp_step *st,
          uint32_t *shown)
{
  const struct osp_vfn *f = view_fn (v, st->fi);
  if (st->fi != *shown)
    sb_printf (b, "%s() ", view_str (v, f->name));
  *shown = st->fi;
  const char *file = base_name (view_str (v, f->file));
  if (st->first == 0)
    sb_puts (b, file);
  else if (st->last == st->first)
    sb_printf (b, "%s:%u", file, st->first);
  else
    sb_printf (b, "%s:%u-%u", file, st->first, st->last);
}

static void
put_path (struct sb *b, const struct view *v, uint64_t ids, uint32_t len,
          int full, struct osp_step *steps)
{
  size_t n = 0;
  for (uint32_t i = 0; i < len; i++)
    {
      const struct osp_vblock *bl = view_block (v, v->ids[ids + i]);
      uint32_t id = v->ids[ids + i];
      if (n > 0 && steps[n - 1].id == id)
        /* the step's first block again: a new pass */
        steps[n++] = (struct osp_step) {
          bl->fn, bl->first_line,
          bl->last_line > bl->first_line ? bl->last_line : bl->first_line,
          id };
      else
        n = osp_steps_add (steps, n, bl->fn, bl->first_line, bl->last_line,
                           id);
    }
  /* The groups are shortened like the report's steps ("... (K steps
     omitted) ..."): count them first. */
  size_t ngroups = 0, per, reps;
  for (size_t i = 0; i < n; i += per * reps, ngroups++)
    group_at (steps, n, i, &per, &reps);
  uint32_t shown = UINT32_MAX;
  size_t i = 0;
  for (size_t g = 0; g < ngroups; g++)
    {
      size_t skip = full ? 0 : osp_steps_omitted (ngroups, g);
      if (skip > 0)
        {
          sb_printf (b, " -> ... (%zu steps omitted) ...", skip);
          for (size_t k = 0; k < skip; k++, i += per * reps)
            group_at (steps, n, i, &per, &reps);
          g += skip - 1;
          shown = UINT32_MAX; /* name the function again after it */
          continue;
        }
      group_at (steps, n, i, &per, &reps);
      if (g)
        sb_puts (b, " -> ");
      if (per > 1)
        sb_puts (b, "(");
      for (size_t k = 0; k < per; k++)
        {
          if (k)
            sb_puts (b, " -> ");
          put_step (b, v, &steps[i + k], &shown);
        }
      if (per > 1)
        sb_puts (b, ")");
      if (reps > 1)
        sb_printf (b, " x%zu", reps);
      i += per * reps;
    }
}

char *
scr_path_text (const struct view *v, uint64_t ids, uint32_t len, int full)
{
  struct osp_step *steps = malloc ((len ? len : 1) * sizeof *steps);
  if (steps == NULL)
    return NULL;
  struct sb b = { 0 };
  put_path (&b, v, ids, len, full, steps);
  free (steps);
  return sb_take (&b);
}

/* ---- tables ---------------------------------------------------------- */

void
scr_table_free (struct scr_table *t)
{
  for (size_t i = 0; i < t->n; i++)
    free (t->rows[i].text);
  free (t->rows);
  free (t->title);
  free (t->header);
  free (t->note);
  memset (t, 0, sizeof *t);
}

static struct scr_row *
add_row (struct scr_table *t, char *text)
{
  if (text == NULL)
    return NULL;
  if (ospview_grow (&t->rows, &t->cap, t->n + 1, sizeof *t->rows, 64) != 0)
    {
      free (text);
      return NULL;
    }
  struct scr_row *r = &t->rows[t->n++];
  memset (r, 0, sizeof *r);
  r->text = text;
  return r;
}

int
scr_set_str (char **dst, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  char *s = NULL;
  int k = vasprintf (&s, fmt, ap);
  va_end (ap);
  if (k < 0)
    return -1;
  free (*dst);
  *dst = s;
  return 0;
}

/* One candidate row before filtering and sorting. */
struct cand
{
  uint64_t index, key;
  double num;          /* the sort key's number */
  char *text;          /* the row */
  const char *name;    /* the sort key's name part (in text) */
  unsigned char match; /* passes the filter */
  unsigned char few;   /* interval wider than the estimate: not ranked */
  unsigned char open;  /* a fold's head shown open */
  uint64_t head;       /* the index of the row it is folded under, or its
                          own (subpaths: fold_subpaths) */
};

/* How cand_cmp and fkid_cmp order rows (NODES: fkid_cmp's forest). */
struct rsort
{
  enum scr_sort key;
  int rev;
  const struct fnode *nodes;
};

static int
cand_cmp (const void *pa, const void *pb, void *ctx)
{
  const struct rsort *rs = ctx;
  const struct cand *a = pa, *b = pb;
  /* Whatever the key and direction, a row too uncertain to rank never
     comes before a ranked one (libosprt/collect/shares.c). */
  if (a->few != b->few)
    return a->few ? 1 : -1;
  int c = 0;
  if (rs->key == SORT_NAME)
    c = strcmp (a->name, b->name);
  else if (rs->key != SORT_RANK && a->num != b->num)
    c = a->num > b->num ? -1 : 1;
  if (rs->rev)
    c = -c;
  if (c == 0) /* stable: the view's order */
    c = a->index < b->index ? -1 : a->index > b->index;
  return c;
}

static int
matches (const char *text, const char *filter)
{
  return filter == NULL || *filter == '\0' || strstr (text, filter) != NULL;
}

/* Whether the path [ids, ids + len) passes the filter: its whole text,
   not the shortened one a row may show (a step hidden in "..." still
   matches).  Out of memory: kept. */
static int
path_matches (const struct view *v, uint64_t ids, uint32_t len,
              const struct scr_opts *o, struct osp_step *steps)
{
  if (o->filter == NULL || *o->filter == '\0')
    return 1;
  struct sb b = { 0 };
  put_path (&b, v, ids, len, 1, steps);
  char *whole = sb_take (&b);
  int m = whole == NULL || strstr (whole, o->filter) != NULL;
  free (whole);
  return m;
}

static int
run_is (const struct view *v, uint32_t off, const char *what)
{
  return strcmp (view_str (v, off), what) == 0;
}

/* Sort CANDS by KEY and filter them into T's rows (taking their texts), at
   most O->top; *MATCHED: how many passed the filter.  Frees every text
   and C itself. */
static int
emit (struct scr_table *t, struct cand *c, size_t n, const struct scr_opts *o,
      enum scr_sort key, size_t *matched)
{
  size_t m = 0;
  int rc = 0, any_few = 0, any_fold = 0;
  for (size_t i = 0; i < n; i++)
    if (c[i].text == NULL)
      rc = -1;
  for (size_t i = 0; i < n; i++)
    {
      if (rc == 0 && c[i].match)
        {
          any_few |= c[i].few;
          any_fold |= c[i].head != c[i].index;
          c[m++] = c[i];
        }
      else
        free (c[i].text);
    }
  *matched = m;
  struct rsort rs = { key, o->reverse, NULL };
  if (rs.key != SORT_RANK || rs.rev || any_few)
    ospview_sort_r (c, m, sizeof *c, cand_cmp, &rs);
  /* A fold shows where its first member sorts (the hottest part of it
     stays on top), as its head's row, then - when the head is open - its
     folded rows in the sort's order; closed, they are left out.  A list
     per head (by index: the folding builders give every candidate an
     index < n). */
  size_t *first = NULL, *next = NULL, *pos = NULL;
  if (any_fold && rc == 0)
    {
      first = malloc ((n ? n : 1) * sizeof *first);
      next = malloc ((m ? m : 1) * sizeof *next);
      pos = malloc ((n ? n : 1) * sizeof *pos);
      if (first == NULL || next == NULL || pos == NULL)
        rc = -1;
      else
        {
          for (size_t i = 0; i < n; i++)
            first[i] = pos[i] = SIZE_MAX;
          for (size_t i = m; i-- > 0;)
            {
              pos[c[i].index] = i;
              if (c[i].head != c[i].index)
                {
                  next[i] = first[c[i].head];
                  first[c[i].head] = i;
                }
            }
        }
    }
  for (size_t i = 0; i < m; i++)
    {
      size_t h = i; /* the row to show here: the fold's head */
      if (first != NULL)
        {
          uint64_t hi = c[i].head;
          if (hi != c[i].index && c[pos[hi]].text == NULL)
            continue; /* its fold was shown already */
          h = pos[hi];
          if (c[h].text == NULL)
            continue;
        }
      size_t j = h;
      while (j != SIZE_MAX)
        {
          if (rc == 0 && !(o->top && t->n >= o->top))
            {
              struct scr_row *r = add_row (t, c[j].text);
              c[j].text = NULL;
              if (r == NULL)
                rc = -1;
              else
                {
                  r->key = c[j].key;
                  r->index = c[j].index;
                  r->depth = j != h;
                  r->has_children = j == h && first != NULL
                                    && first[c[j].index] != SIZE_MAX;
                  r->expanded = r->has_children && c[j].open;
                }
            }
          else
            {
              free (c[j].text);
              c[j].text = NULL;
            }
          if (first == NULL)
            break;
          if (j == h)
            j = c[h].open ? first[c[h].index] : SIZE_MAX;
          else
            j = next[j];
        }
      if (first != NULL)
        for (size_t k = first[c[h].index]; k != SIZE_MAX; k = next[k])
          {
            /* a closed fold's rows: done too */
            free (c[k].text);
            c[k].text = NULL;
          }
    }
  for (size_t i = 0; i < m; i++)
    free (c[i].text);
  free (first);
  free (next);
  free (pos);
  free (c);
  return rc;
}

static const char *
filter_note (const struct scr_opts *o)
{
  return o->filter && *o->filter ? o->filter : NULL;
}

static int
set_title (struct scr_table *t, const char *what, const struct scr_opts *o,
           size_t matched)
{
  const char *f = filter_note (o);
  if (f)
    return scr_set_str (&t->title, "%s (%zu of %zu matching \"%s\", of %zu)",
                    what, t->n, matched, f, t->total);
  return scr_set_str (&t->title, "%s (%zu of %zu)", what, t->n, t->total);
}

static void
free_cands (struct cand *c, size_t n)
{
  for (size_t i = 0; i < n; i++)
    free (c[i].text);
  free (c);
}

/* ---- subpaths: folds ---------------------------------------------------
 * A subpath contained in a longer one that ran as often says nothing the
 * longer one does not: in a loop or a recursion the lengths 2, 4, 8 ... of
 * one cycle fill the screen with rows of one estimate.  So a subpath is
 * folded under a subpath of twice its length that contains it when the
 * longer one's estimate lies within the shorter one's interval
 * (|N - N'| <= err95; or within 1%, which exact counts need: a loop's last
 * iteration makes the shorter one's count a little higher), and never a
 * ranked row under one too uncertain to rank.  Chains fold to their
 * longest member, the head, whose row shows "[+] " (Enter opens it: the
 * folded rows follow it, "  - ").  While filtering nothing is folded.
 * Finding the containers: every subpath in a hash table by its length and
 * a polynomial hash of its block ids, and the windows of half length of
 * each subpath looked up with a rolling hash: linear in the ids. */

#define FOLD_B 0x100000001b3ull /* the hash's base (FNV's prime: odd) */

static uint64_t
ids_hash (const struct view *v, uint64_t ids, uint32_t len)
{
  uint64_t h = 0;
  for (uint32_t k = 0; k < len; k++)
    h = h * FOLD_B + v->ids[ids + k] + 1;
  return h;
}

/* Whether T (containing S) ran as often as S: T's estimate within S's
   interval, or within 1% (exact counts). */
static int
same_run (const struct osp_vsubpath *s, const struct osp_vsubpath *t)
{
  double d = s->estimate > t->estimate ? s->estimate - t->estimate
                                       : t->estimate - s->estimate;
  double big = s->estimate > t->estimate ? s->estimate : t->estimate;
  return d <= s->err95 || d <= 0.01 * big;
}

/* Subpath I too uncertain to rank: the runtime's flag (the view's), or
   for older views its rule (viewparse.h). */
static int
is_few (const struct view *v, uint64_t i)
{
  return !view_subpath_ranked (v, i);
}

/* HEAD[i]: the subpath row i folds under (its chain's longest), or i;
   *NFOLDED: how many fold.  -1 out of memory (nothing folded then). */
static int
fold_subpaths (const struct view *v, uint64_t *head, size_t *nfolded)
{
  uint64_t n = v->nsubpaths;
  *nfolded = 0;
  for (uint64_t i = 0; i < n; i++)
    head[i] = i;
  if (n < 2)
    return 0;
  size_t cap = 4;
  while (cap < 2 * n)
    cap *= 2;
  uint64_t *slot = calloc (cap, sizeof *slot); /* index + 1, 0: empty */
  uint64_t *hash = malloc (n * sizeof *hash);
  uint64_t *parent = malloc (n * sizeof *parent);
  if (slot == NULL || hash == NULL || parent == NULL)
    {
      free (slot);
      free (hash);
      free (parent);
      return -1;
    }
  for (uint64_t i = 0; i < n; i++)
    {
      const struct osp_vsubpath *s = view_subpath (v, i);
      hash[i] = ids_hash (v, s->ids, s->len);
      parent[i] = UINT64_MAX;
      size_t at = (size_t) ospview_hash_mix (hash[i] ^ s->len) & (cap - 1);
      while (slot[at])
        at = (at + 1) & (cap - 1);
      slot[at] = i + 1;
    }
  for (uint64_t ti = 0; ti < n; ti++) /* in rank order: the first wins */
    {
      const struct osp_vsubpath *t = view_subpath (v, ti);
      uint32_t half = t->len / 2;
      if (half < 2 || t->len % 2)
        continue;
      uint64_t top = 1; /* FOLD_B^(half - 1) */
      for (uint32_t k = 1; k < half; k++)
        top *= FOLD_B;
      uint64_t h = ids_hash (v, t->ids, half);
      for (uint32_t j = 0; j + half <= t->len; j++)
        {
          if (j > 0)
            h = (h - (v->ids[t->ids + j - 1] + 1) * top) * FOLD_B
                + v->ids[t->ids + j + half - 1] + 1;
          size_t at = (size_t) ospview_hash_mix (h ^ half) & (cap - 1);
          for (; slot[at]; at = (at + 1) & (cap - 1))
            {
              uint64_t si = slot[at] - 1;
              const struct osp_vsubpath *s = view_subpath (v, si);
              if (parent[si] != UINT64_MAX || s->len != half
                  || hash[si] != h || !same_run (s, t)
                  || (is_few (v, ti) && !is_few (v, si))
                  || memcmp (&v->ids[s->ids], &v->ids[t->ids + j],
                             half * sizeof *v->ids)
                         != 0)
                continue;
              parent[si] = ti;
            }
        }
    }
  for (uint64_t i = 0; i < n; i++)
    {
      uint64_t r = i;
      while (parent[r] != UINT64_MAX) /* lengths double: at most 32 */
        r = parent[r];
      head[i] = r;
      *nfolded += r != i;
    }
  free (slot);
  free (hash);
  free (parent);
  return 0;
}

/* The row prefix ("  rank  estimate ...  ") is PATH_COL bytes; the name
   of the sort is the path text after it (after a fold's mark). */
static int
build_subpaths (struct scr_table *t, const struct view *v,
                const struct scr_opts *o, struct osp_step *steps)
{
  int exact = run_is (v, v->run.mode, "subpaths-exact");
  t->total = v->nsubpaths;
  if (scr_set_str (&t->header, "%5s %14s %12s %7s %14s %7s %5s  %s",
                   "rank", "estimate", exact ? "" : "+/- 95%", "share",
                   "work", "work%", "len", "path")
      != 0)
    return -1;
  t->path_col = strlen (t->header) - 4;
  if (v->nsubpaths == 0
      && scr_set_str (&t->note, "%s",
                  v->run.mode && !run_is (v, v->run.mode, "subpaths")
                          && !exact
                      ? "no hot subpaths: the program runs with mode=blocks "
                        "or off"
                      : "no hot subpaths yet")
             != 0)
    return -1;
  uint64_t n = v->nsubpaths;
  struct cand *c = calloc (n ? n : 1, sizeof *c);
  uint64_t *head = malloc ((n ? n : 1) * sizeof *head);
  size_t *members = calloc (n ? n : 1, sizeof *members);
  size_t nfolded = 0, nfew = 0;
  if (c == NULL || head == NULL || members == NULL)
    {
      free (c);
      free (head);
      free (members);
      return -1;
    }
  if (filter_note (o) != NULL || fold_subpaths (v, head, &nfolded) != 0)
    {
      for (uint64_t i = 0; i < n; i++)
        head[i] = i;
      nfolded = 0;
    }
  for (uint64_t i = 0; i < n; i++)
    members[head[i]] += head[i] != i;
  /* Raw work does not compare subpaths of different lengths (a length-L
     window over a loop weighs about L blocks, and one sample of a long
     subpath outweighs many of a short one), so the work order is by
     work share within each length class, the rule of the runtime's
     report and of --json (workshare.h, export-json.c). */
  struct osp_work_unit unit[32];
  memset (unit, 0, sizeof unit);
  for (uint64_t i = 0; i < n; i++)
    {
      const struct osp_vsubpath *s = view_subpath (v, i);
      osp_work_unit_add (&unit[osp_work_class (s->len)],
                         s->estimate * view_run_cost (v, s->ids, s->len),
                         s->share);
    }
  for (uint64_t i = 0; i < n; i++)
    {
      const struct osp_vsubpath *s = view_subpath (v, i);
      struct sb b = { 0 };
      char err[40] = "", rank[16] = "-";
      c[i].few = (unsigned char) is_few (v, i);
      nfew += c[i].few;
      if (!c[i].few) /* an unranked row has no rank (shares.c) */
        snprintf (rank, sizeof rank, "%u", s->rank);
      if (!exact)
        snprintf (err, sizeof err, "+/- %s", NUM (s->err95, 0));
      double work = s->estimate * view_run_cost (v, s->ids, s->len);
      double wshare = osp_work_share (&unit[osp_work_class (s->len)], work);
      sb_printf (&b, "%5s %14s %12s %7s %14s %7s %5u  ", rank,
                 NUM (s->estimate, 0), err, PCT (s->share), NUM (work, 0),
                 PCT (wshare), s->len);
      c[i].key = run_key (v, 1, s->ids, s->len);
      c[i].open = (unsigned char) scr_keyset_has (o->toggled, c[i].key);
      size_t mark = b.n;
      if (members[i])
        sb_puts (&b, c[i].open ? "[-] " : "[+] ");
      else if (head[i] != i)
        sb_puts (&b, "  - ");
      mark = b.n - mark;
      put_path (&b, v, s->ids, s->len, o->full_paths, steps);
      c[i].index = i;
      c[i].head = head[i];
      c[i].match = (unsigned char) path_matches (v, s->ids, s->len, o, steps);
      c[i].num = o->sort == SORT_SHARE    ? s->share
                 : o->sort == SORT_LENGTH ? s->len
                 : o->sort == SORT_WORK   ? wshare
                                          : s->estimate;
      c[i].text = sb_take (&b);
      c[i].name = c[i].text ? c[i].text + t->path_col + mark : "";
    }
  free (head);
  free (members);
  size_t matched = 0;
  int rc = emit (t, c, n, o,
                 scr_sort_ok (SCR_SUBPATHS, o->sort) ? o->sort : SORT_RANK,
                 &matched);
  if (rc == 0)
    rc = set_title (t, "hottest subpaths", o, matched);
  if (rc == 0 && (nfolded || nfew))
    {
      char *title = t->title;
      t->title = NULL;
      char fold[64] = "", few[64] = "";
      if (nfolded)
        snprintf (fold, sizeof fold, ", %zu folded", nfolded);
      if (nfew)
        snprintf (few, sizeof few, ", %zu unranked", nfew);
      rc = scr_set_str (&t->title, "%s%s%s", title, fold, few);
      free (title);
    }
  return rc;
}

static int
build_paths (struct scr_table *t, const struct view *v,
             const struct scr_opts *o, struct osp_step *steps)
{
  int timer = run_is (v, v->run.paths, "timer");
  int exact = run_is (v, v->run.paths, "exhaustive");
  t->total = v->npaths;
  if (scr_set_str (&t->header, "%5s %14s %12s %7s %14s %8s %5s  %s", "rank",
               timer ? "samples" : "estimate",
               exact || timer ? "" : "+/- 95%", "share", "work", "branches",
               "len", "path")
      != 0)
    return -1;
  t->path_col = strlen (t->header) - 4;
  if (v->npaths == 0
      && scr_set_str (&t->note, "%s",
                  v->run.paths == 0 || run_is (v, v->run.paths, "off")
                      ? "no Ball-Larus paths: none are profiled (paths=off, "
                        "or the code was built without instrument=paths)"
                      : "no hot paths yet")
             != 0)
    return -1;
  struct cand *c = calloc (v->npaths ? v->npaths : 1, sizeof *c);
  size_t nfew = 0;
  if (c == NULL)
    return -1;
  for (uint64_t i = 0; i < v->npaths; i++)
    {
      const struct osp_vpath *p = view_path (v, i);
      struct sb b = { 0 };
      char err[40] = "";
      /* Under paths=counter only a row read from a function's counters
         has no interval (a sampled row has at least one sample). */
      if (!exact && !timer && p->err95 == 0)
        snprintf (err, sizeof err, "exact");
      else if (!exact && !timer)
        snprintf (err, sizeof err, "+/- %s", NUM (p->err95, 0));
      char num[OSPVIEW_NUM];
      if (timer)
        snprintf (num, sizeof num, "%llu", (unsigned long long) p->samples);
      else
        ospview_num (num, sizeof num, p->estimate, 0);
      /* rows with an interval wider than the estimate are not ranked, as
         the subpaths' (the runtime's flag, shares.c) */
      c[i].few = (unsigned char) !view_path_ranked (v, i);
      nfew += c[i].few;
      char rank[16] = "-";
      if (!c[i].few)
        snprintf (rank, sizeof rank, "%u", p->rank);
      double work = (timer ? (double) p->samples : p->estimate)
                    * view_run_cost (v, p->ids, p->len);
      sb_printf (&b, "%5s %14s %12s %7s %14s %8u %5u  ", rank, num, err,
                 PCT (p->share), NUM (work, 0), p->branches, p->len);
      put_path (&b, v, p->ids, p->len, o->full_paths, steps);
      c[i].index = c[i].head = i;
      c[i].match = (unsigned char) path_matches (v, p->ids, p->len, o, steps);
      c[i].key = mix (mix (2, view_fn (v, p->fn)->id), p->id);
      c[i].num = o->sort == SORT_SHARE      ? p->share
                 : o->sort == SORT_LENGTH   ? p->len
                 : o->sort == SORT_BRANCHES ? p->branches
                 : o->sort == SORT_WORK     ? work
                 : timer                    ? (double) p->samples
                                            : p->estimate;
      c[i].text = sb_take (&b);
      c[i].name = c[i].text ? c[i].text + t->path_col : "";
    }
  size_t matched = 0;
  int rc = emit (t, c, v->npaths, o,
                 scr_sort_ok (SCR_PATHS, o->sort) ? o->sort : SORT_RANK,
                 &matched);
  if (rc == 0)
    rc = set_title (t, "hottest Ball-Larus paths", o, matched);
  if (rc == 0 && nfew)
    {
      char *title = t->title;
      t->title = NULL;
      rc = scr_set_str (&t->title, "%s, %zu unranked", title, nfew);
      free (title);
    }
  return rc;
}

/* ---- functions ------------------------------------------------------- */

/* The flat functions screen: each function's self share of the work and
   of the block executions (FNWORK: the runtime's figures over the whole
   run, from block counts or path estimates), each column adding up to
   100%, then its calls (mode=blocks) and its hot rows.  A view without
   FNWORK (view layout 1.2 or older) shows "-" for the shares. */
static int
build_functions (struct scr_table *t, const struct view *v,
                 const struct scr_opts *o)
{
  t->total = v->nfns;
  if (scr_set_str (&t->header, "%7s %7s %14s %8s %8s  %s", "work", "execs",
               "calls", "subpaths", "paths", "function")
      != 0)
    return -1;
  t->path_col = strlen (t->header) - 8;
  if (v->nfns == 0 && scr_set_str (&t->note, "no functions registered") != 0)
    return -1;
  /* Hot rows per function: subpath rows that enter one of its blocks,
     Ball-Larus path rows of it. */
  uint32_t *nsub = calloc (v->nfns ? v->nfns : 1, sizeof *nsub);
  uint32_t *npath = calloc (v->nfns ? v->nfns : 1, sizeof *npath);
  uint64_t *mark = calloc (v->nfns ? v->nfns : 1, sizeof *mark);
  struct cand *c = calloc (v->nfns ? v->nfns : 1, sizeof *c);
  int rc = -1;
  if (nsub == NULL || npath == NULL || mark == NULL || c == NULL)
    goto out;
  for (uint64_t i = 0; i < v->nsubpaths; i++)
    {
      const struct osp_vsubpath *s = view_subpath (v, i);
      for (uint32_t k = 0; k < s->len; k++)
        {
          uint32_t fn = view_block (v, v->ids[s->ids + k])->fn;
          if (mark[fn] != i + 1)
            {
              mark[fn] = i + 1;
              nsub[fn]++;
            }
        }
    }
  for (uint64_t i = 0; i < v->npaths; i++)
    npath[view_path (v, i)->fn]++;
  double total_work = 0, total_execs = 0;
  for (uint64_t i = 0; i < v->nfnwork; i++)
    {
      total_work += view_fnwork (v, i)->work;
      total_execs += view_fnwork (v, i)->execs;
    }
  for (uint64_t i = 0; i < v->nfns; i++)
    {
      const struct osp_vfn *f = view_fn (v, i);
      const struct osp_vfnwork *w = view_fnwork (v, i);
      struct sb b = { 0 };
      char calls[32] = "-", wpct[OSPVIEW_NUM] = "-", epct[OSPVIEW_NUM] = "-";
      if (f->calls != OSP_VIEW_NONE)
        snprintf (calls, sizeof calls, "%llu", (unsigned long long) f->calls);
      if (w != NULL)
        {
          ospview_pct (wpct, sizeof wpct,
                       total_work > 0 ? w->work / total_work : 0, 2);
          ospview_pct (epct, sizeof epct,
                       total_execs > 0 ? w->execs / total_execs : 0, 2);
        }
      sb_printf (&b, "%7s %7s %14s %8u %8u  ", wpct, epct, calls, nsub[i],
                 npath[i]);
      size_t name_at = b.n;
      sb_printf (&b, "%s() %s", view_str (v, f->name), view_str (v, f->file));
      if (f->first_line)
        sb_printf (&b, ":%u", f->first_line);
      c[i].index = c[i].head = i;
      c[i].key = mix (4, f->id);
      /* SORT_RANK: by hot rows, then calls (the functions that matter;
         the calls clamped below 2^40 so that both fit a double) */
      double calls_n = f->calls == OSP_VIEW_NONE ? 0.0
                       : f->calls >= (1ull << 40) ? (double) ((1ull << 40) - 1)
                                                  : (double) f->calls;
      c[i].num = o->sort == SORT_CALLS
                     ? (f->calls == OSP_VIEW_NONE ? -1.0 : (double) f->calls)
                 : o->sort == SORT_WORK ? (w ? w->work : -1.0)
                 : o->sort == SORT_EXECS
                     ? (w ? w->execs : -1.0)
                     : ((double) nsub[i] + npath[i]) * (double) (1ull << 40)
                           + calls_n;
      c[i].text = sb_take (&b);
      c[i].name = c[i].text ? c[i].text + name_at : "";
      c[i].match = (unsigned char) matches (c[i].name, o->filter);
    }
  size_t matched = 0;
  rc = emit (t, c, v->nfns, o,
             scr_sort_ok (SCR_FUNCTIONS, o->sort) && o->sort != SORT_RANK
                 ? o->sort
                 : SORT_ESTIMATE,
             &matched);
  c = NULL;
  if (rc == 0)
    rc = set_title (t, "functions", o, matched);
out:
  if (c != NULL)
    free_cands (c, v->nfns);
  free (nsub);
  free (npath);
  free (mark);
  return rc;
}

/* ---- the prefix forest ----------------------------------------------- */

/* Deeper nodes than this are drawn at this indentation with a "+N" mark
   (the runtime's k is at most 64; a view may not be the runtime's). */
#define DRAW_DEPTH 24

struct fnode
{
  char *text;           /* the numbers and the path, without the tree */
  uint64_t key;
  double num;
  /* as shown: a child never above its parent (a view of an older writer
     may have one: pathforest.c's cut), but under a connector (count 0) */
  uint64_t count;
  double estimate, share;
  double work;          /* its count or estimate x its blocks' costs */
  uint32_t first, n;    /* its children in KIDS[first, first + n) */
  unsigned char keep, open;
};

static int
fkid_cmp (const void *pa, const void *pb, void *ctx)
{
  const struct rsort *rs = ctx;
  uint32_t a = *(const uint32_t *) pa, b = *(const uint32_t *) pb;
  const struct fnode *x = &rs->nodes[a], *y = &rs->nodes[b];
  int c = 0;
  if (rs->key == SORT_NAME)
    c = strcmp (x->text, y->text); /* text starts at the path */
  else if (rs->key != SORT_RANK && x->num != y->num)
    c = x->num > y->num ? -1 : 1;
  if (rs->rev)
    c = -c;
  if (c == 0)
    c = a < b ? -1 : a > b;
  return c;
}

/* One forest screen being built: the view, the choices, and the nodes
   (nd[n]: the pseudo root whose children are the roots) with their
   children lists (node i's in kids[nd[i].first, + nd[i].n)). */
struct forest
{
  const struct view *v;
  const struct scr_opts *o;
  struct osp_step *steps;
  uint64_t n;
  int burst, filtering;
  struct fnode *nd;
  uint32_t *kids;
};

/* The header, the path column and, for an empty forest, why. */
static int
forest_header (struct scr_table *t, const struct forest *F)
{
  const struct view *v = F->v;
  t->total = F->n;
  if (scr_set_str (&t->header, "%14s %12s %7s %14s  %s",
               F->burst ? "estimate" : "count", F->burst ? "+/- 95%" : "",
               "share", "work", "tree of paths")
      != 0)
    return -1;
  t->path_col = strlen (t->header) - 13;
  if (F->n == 0
      && scr_set_str (&t->note, "%s",
                  v->run.forest == 0 || run_is (v, v->run.forest, "off")
                      ? "no prefix forest: forest=off, or no path probes"
                      : "no forest nodes yet")
             != 0)
    return -1;
  return 0;
}

/* Each node's text, key (from its parent's: stable across refreshes),
   sort number, whether it matches the filter and whether it is open;
   *MATCHED: how many match. */
static int
forest_nodes (struct forest *F, uint64_t *matched)
{
  const struct view *v = F->v;
  const struct scr_opts *o = F->o;
  struct fnode *nd = F->nd;
  *matched = 0;
  for (uint64_t i = 0; i < F->n; i++)
    {
      const struct osp_vforest *f = view_forest (v, i);
      struct sb b = { 0 };
      put_path (&b, v, f->ids, f->len, o->full_paths, F->steps);
      nd[i].text = sb_take (&b);
      if (nd[i].text == NULL)
        return -1;
      uint64_t pk = f->parent == OSP_VIEW_NO_PARENT ? 3 : nd[f->parent].key;
      nd[i].key = mix (mix (pk, view_fn (v, f->fn)->id), f->id);
      nd[i].count = f->count;
      nd[i].estimate = f->estimate;
      nd[i].share = f->share;
      /* parents come first (viewparse.c checks it) */
      if (f->parent != OSP_VIEW_NO_PARENT && nd[f->parent].count > 0
          && nd[i].count > nd[f->parent].count)
        {
          nd[i].count = nd[f->parent].count;
          nd[i].estimate = nd[f->parent].estimate;
          nd[i].share = 1.0;
        }
      nd[i].work = (F->burst ? nd[i].estimate : (double) nd[i].count)
                   * view_run_cost (v, f->ids, f->len);
      nd[i].num = o->sort == SORT_SHARE  ? nd[i].share
                  : o->sort == SORT_WORK ? nd[i].work
                  : F->burst             ? nd[i].estimate
                                         : (double) nd[i].count;
      nd[i].keep
          = (unsigned char) path_matches (v, f->ids, f->len, o, F->steps);
      *matched += nd[i].keep;
      int open_default = f->depth < o->open_depth;
      nd[i].open
          = (unsigned char) (open_default
                             ^ scr_keyset_has (o->toggled, nd[i].key));
    }
  return 0;
}

static uint32_t
forest_parent (const struct forest *F, uint64_t i)
{
  const struct osp_vforest *f = view_forest (F->v, i);
  return f->parent == OSP_VIEW_NO_PARENT ? (uint32_t) F->n : f->parent;
}

/* "keep" carried up to the ancestors, and the children lists (CSR) in
   the view's order.  FILL: n + 1 zeroed counters. */
static void
forest_link (struct forest *F, uint32_t *fill)
{
  struct fnode *nd = F->nd;
  uint64_t n = F->n;
  /* A node stays when it or a descendant matches: children come after
     their parents, so one backward pass carries "keep" up. */
  for (uint64_t i = n; i-- > 0;)
    {
      uint32_t p = forest_parent (F, i);
      if (nd[i].keep)
        nd[p].keep = 1;
      nd[p].n++;
    }
  uint32_t at = 0;
  for (uint64_t i = 0; i <= n; i++)
    {
      nd[i].first = at;
      at += nd[i].n;
    }
  for (uint64_t i = 0; i < n; i++)
    {
      uint32_t p = forest_parent (F, i);
      F->kids[nd[p].first + fill[p]++] = (uint32_t) i;
    }
}

/* The kept children first (sorted), the others dropped. */
static void
forest_prune (struct forest *F)
{
  const struct scr_opts *o = F->o;
  struct fnode *nd = F->nd;
  struct rsort rs = { scr_sort_ok (SCR_FOREST, o->sort) ? o->sort : SORT_RANK,
                      o->reverse, nd };
  for (uint64_t i = 0; i <= F->n; i++)
    {
      uint32_t *k = F->kids + nd[i].first, m = 0;
      for (uint32_t j = 0; j < nd[i].n; j++)
        if (nd[k[j]].keep)
          k[m++] = k[j];
      nd[i].n = m;
      if (m > 1 && (rs.key != SORT_RANK || rs.rev))
        ospview_sort_r (k, m, sizeof *k, fkid_cmp, &rs);
    }
}

/* The tree drawing of a row at DEPTH, into PRE (2 * DRAW_DEPTH + 1): for
   each ancestor below the root "| " (siblings still to come) or "  ",
   then "|-" or "`-" for the node itself (LAST: its parent's last child).
   STK_LAST[L]: whether the node at stack level L was its parent's last;
   SP: the stack level of the row's parent. */
static void
forest_prefix (char *pre, const unsigned char *stk_last, size_t sp,
               uint32_t depth, int last)
{
  size_t pl = 0;
  uint32_t drawn = depth < DRAW_DEPTH ? depth : DRAW_DEPTH;
  for (uint32_t d = 1; d <= drawn; d++)
    {
      /* Stack level L holds the node at depth L - 1 and sp is KID's
         depth; pair d shows depth sp - drawn + d (the deepest levels
         when the drawing is capped). */
      int anc_last = d < drawn ? stk_last[sp - drawn + d + 1] : 0;
      memcpy (pre + pl, d == drawn ? (last ? "`-" : "|-")
                        : (anc_last ? "  " : "| "),
              2);
      pl += 2;
    }
  pre[pl] = '\0';
}

/* Node KID's row, drawn with PRE; then [+] closed, [-] open. */
static int
forest_row (struct scr_table *t, const struct forest *F, uint32_t kid,
            const char *pre)
{
  const struct osp_vforest *f = view_forest (F->v, kid);
  const struct fnode *nk = &F->nd[kid];
  uint32_t depth = f->depth;
  struct sb b = { 0 };
  char num[40], err[40] = "";
  if (F->burst)
    {
      /* "~": too few samples to rank (the runtime's text report's mark);
         the tree keeps its order, so the node is marked, not moved */
      snprintf (num, sizeof num, "%s%s",
                view_forest_ranked (F->v, kid) ? "" : "~",
                NUM (nk->estimate, 0));
      snprintf (err, sizeof err, "+/- %s", NUM (f->err95, 0));
    }
  else
    snprintf (num, sizeof num, "%llu", (unsigned long long) nk->count);
  int kidopen = nk->n > 0 && (nk->open || F->filtering);
  sb_printf (&b, "%14s %12s %7s %14s  ", num, err, PCT (nk->share),
             NUM (nk->work, 0));
  if (depth > DRAW_DEPTH)
    sb_printf (&b, "+%u", depth - DRAW_DEPTH);
  sb_printf (&b, "%s%s%s", pre,
             nk->n == 0 ? (depth ? " " : "") : kidopen ? "[-] " : "[+] ",
             nk->text);
  struct scr_row *r = add_row (t, sb_take (&b));
  if (r == NULL)
    return -1;
  r->key = nk->key;
  r->index = kid;
  r->depth = depth;
  r->has_children = nk->n > 0;
  r->expanded = (unsigned char) kidopen;
  return 0;
}

/* The rows: depth-first from the pseudo root, into the open nodes (all
   when filtering), at most O->top. */
static int
forest_walk (struct scr_table *t, const struct forest *F)
{
  uint64_t n = F->n;
  const struct fnode *nd = F->nd;
  /* the DFS stack: node and next child position */
  uint32_t *stk_node = calloc (n + 1, sizeof *stk_node);
  uint32_t *stk_next = calloc (n + 1, sizeof *stk_next);
  unsigned char *stk_last = calloc (n + 1, 1);
  int rc = -1;
  if (stk_node == NULL || stk_next == NULL || stk_last == NULL)
    goto out;
  char pre[2 * DRAW_DEPTH + 1];
  size_t sp = 0;
  stk_node[0] = (uint32_t) n;
  stk_next[0] = 0;
  rc = 0;
  while (sp < (size_t) n + 1 && rc == 0)
    {
      uint32_t cur = stk_node[sp];
      int open = cur == n || nd[cur].open || F->filtering;
      if (!open || stk_next[sp] >= nd[cur].n
          || (F->o->top && t->n >= F->o->top))
        {
          if (sp == 0)
            break;
          sp--;
          continue;
        }
      uint32_t j = stk_next[sp]++;
      uint32_t kid = F->kids[nd[cur].first + j];
      int last = j + 1 == nd[cur].n;
      forest_prefix (pre, stk_last, sp, view_forest (F->v, kid)->depth,
                     last);
      if (forest_row (t, F, kid, pre) != 0)
        {
          rc = -1;
          break;
        }
      if (sp + 1 <= (size_t) n)
        {
          sp++;
          stk_node[sp] = kid;
          stk_next[sp] = 0;
          stk_last[sp] = (unsigned char) last;
        }
    }
out:
  free (stk_node);
  free (stk_next);
  free (stk_last);
  return rc;
}

static int
build_forest (struct scr_table *t, const struct view *v,
              const struct scr_opts *o, struct osp_step *steps)
{
  struct forest F = { v, o, steps, v->nforest,
                      run_is (v, v->run.forest, "burst"),
                      o->filter && *o->filter, NULL, NULL };
  if (forest_header (t, &F) != 0)
    return -1;
  uint64_t n = F.n;
  F.nd = calloc (n + 1, sizeof *F.nd);
  F.kids = calloc (n ? n : 1, sizeof *F.kids);
  uint32_t *fill = calloc (n + 1, sizeof *fill);
  uint64_t matched = 0;
  int rc = -1;
  if (F.nd != NULL && F.kids != NULL && fill != NULL
      && forest_nodes (&F, &matched) == 0)
    {
      forest_link (&F, fill);
      forest_prune (&F);
      rc = forest_walk (t, &F);
    }
  if (rc == 0)
    rc = set_title (t, "prefix forest", o, (size_t) matched);
  size_t nfew = 0;
  for (uint64_t i = 0; F.burst && i < n; i++)
    nfew += (size_t) !view_forest_ranked (v, i);
  if (rc == 0 && nfew)
    {
      char *title = t->title;
      t->title = NULL;
      rc = scr_set_str (&t->title, "%s, %zu too few samples (~)", title,
                        nfew);
      free (title);
    }
  if (F.nd != NULL)
    for (uint64_t i = 0; i < n; i++)
      free (F.nd[i].text);
  free (F.nd);
  free (F.kids);
  free (fill);
  return rc;
}

/* ---- entry ----------------------------------------------------------- */

int
scr_build (struct scr_table *t, const struct view *v, enum scr_screen s,
           const struct scr_opts *o)
{
  memset (t, 0, sizeof *t);
  /* room for the steps of the longest row (a step per block at most) */
  uint32_t longest = 1;
  for (uint64_t i = 0; i < v->nsubpaths; i++)
    if (view_subpath (v, i)->len > longest)
      longest = view_subpath (v, i)->len;
  for (uint64_t i = 0; i < v->npaths; i++)
    if (view_path (v, i)->len > longest)
      longest = view_path (v, i)->len;
  for (uint64_t i = 0; i < v->nforest; i++)
    if (view_forest (v, i)->len > longest)
      longest = view_forest (v, i)->len;
  struct osp_step *steps = malloc ((size_t) longest * sizeof *steps);
  if (steps == NULL)
    return -1;
  int rc;
  switch (s)
    {
    case SCR_SUBPATHS:
      rc = build_subpaths (t, v, o, steps);
      break;
    case SCR_PATHS:
      rc = build_paths (t, v, o, steps);
      break;
    case SCR_FOREST:
      rc = build_forest (t, v, o, steps);
      break;
    case SCR_FUNCTIONS:
      rc = build_functions (t, v, o);
      break;
    default:
      rc = -1;
    }
  free (steps);
  if (rc != 0)
    scr_table_free (t);
  return rc;
}
