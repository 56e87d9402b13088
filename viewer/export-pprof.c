/* SPDX-License-Identifier: GPL-3.0-or-later */
/* export-pprof.c - ospview --pprof=FILE: the view's rows as a pprof
 * profile (profile.proto, gzipped), for pprof and the continuous
 * profiling backends that ingest it (doc/SNAPSHOT.md, "--pprof").
 *
 *   sample types  executions (count) and, in a view with block costs,
 *                 work (cost): the row's executions times its blocks'
 *                 summed costs, as --json's work; work is the default
 *   samples       one per hot subpath, Ball-Larus path and forest node
 *                 (ex_samples, export.c), its locations leaf first as
 *                 pprof wants, so that the stack reads root to leaf and
 *                 the flame graph of subpaths is their prefix forest;
 *                 labels: profile (subpaths, paths, forest), length
 *                 (blocks), value (exact, estimate, samples), the 95%
 *                 half-widths of an estimate (executions_err95,
 *                 work_err95), rank, path_id (a string), depth (levels),
 *                 truncated
 *   locations     one per block of a sample: id = block index + 1, one
 *                 line (its function, its first line)
 *   functions     one per function of a location: name, file, first line
 *   mapping       one: the program, with functions, files and lines
 *                 already known (nothing for pprof to symbolise)
 *   time_nanos    the run's start, duration_nanos up to the view (a
 *                 cumulative profile covers that span); period 1
 *                 execution (the values are already whole-run estimates)
 *   comments      the program, arguments, pid, OSP_OPTIONS, the policies,
 *                 the source, and how to pick one profile
 *
 * Values are int64 in pprof, so estimates are rounded to the nearest
 * integer.  Strings are made valid UTF-8 first (ex_put, EX_PLAIN): proto3
 * strings must be, and names come from the profiled program.  The file is
 * written whole or not at all (osp_file_replace_mode, mode 0600 as a
 * snapshot: it holds the command line).  The protobuf and the gzip bytes
 * are pbwrite.c's.
 */
#define _GNU_SOURCE
#include "export.h"
#include "pbwrite.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "snapfile.h"
#include "strtab.h"

/* profile.proto's field numbers (github.com/google/pprof,
   proto/profile.proto; tests/progs/profile.proto). */
enum
{
  PROFILE_SAMPLE_TYPE = 1, PROFILE_SAMPLE, PROFILE_MAPPING, PROFILE_LOCATION,
  PROFILE_FUNCTION, PROFILE_STRING_TABLE, PROFILE_TIME_NANOS = 9,
  PROFILE_DURATION_NANOS, PROFILE_PERIOD_TYPE, PROFILE_PERIOD,
  PROFILE_COMMENT, PROFILE_DEFAULT_SAMPLE_TYPE,
  VALUETYPE_TYPE = 1, VALUETYPE_UNIT,
  SAMPLE_LOCATION_ID = 1, SAMPLE_VALUE, SAMPLE_LABEL,
  LABEL_KEY = 1, LABEL_STR, LABEL_NUM, LABEL_NUM_UNIT,
  MAPPING_ID = 1, MAPPING_FILENAME = 5, MAPPING_HAS_FUNCTIONS = 7,
  MAPPING_HAS_FILENAMES, MAPPING_HAS_LINE_NUMBERS,
  LOCATION_ID = 1, LOCATION_MAPPING_ID, LOCATION_LINE = 4,
  LINE_FUNCTION_ID = 1, LINE_LINE,
  FUNCTION_ID = 1, FUNCTION_NAME, FUNCTION_SYSTEM_NAME, FUNCTION_FILENAME,
  FUNCTION_START_LINE
};

struct pp
{
  const struct view *v;
  struct pb prof;            /* the Profile, samples first */
  struct pb sub, sub2, sub3; /* scratch for nested messages */
  struct osp_strtab strs;    /* pprof's string table, deduplicated */
  uint32_t *offs;            /* its strings' offsets, ascending: the */
  size_t noffs, offcap;      /* index of a string is its offset's */
  unsigned char *used;       /* per block: a sample passes it */
  int have_work;             /* the view has block costs */
  int oom;
};

/* ---- the string table ---------------------------------------------------- */

static int
cmp_u32 (const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
  return (x > y) - (x < y);
}

/* S's index in the string table (0 for "" and out of memory), made valid
   UTF-8 without control characters first. */
static int64_t
str (struct pp *p, const char *s)
{
  char *clean = NULL;
  size_t n = 0;
  FILE *f = open_memstream (&clean, &n);
  if (f == NULL)
    {
      p->oom = 1;
      return 0;
    }
  ex_put (f, s ? s : "", EX_PLAIN);
  if (fclose (f) != 0 || clean == NULL)
    {
      free (clean);
      p->oom = 1;
      return 0;
    }
  size_t before = p->strs.len;
  uint32_t off = osp_strtab_intern (&p->strs, clean);
  free (clean);
  if (p->strs.oom)
    p->oom = 1;
  if (off == 0)
    return 0;
  if (p->strs.len > before) /* new: appended at the end */
    {
      if (ex_grow ((void **) &p->offs, &p->offcap, p->noffs + 1,
                   sizeof *p->offs)
          != 0)
        {
          p->oom = 1;
          return 0;
        }
      p->offs[p->noffs++] = off;
      return (int64_t) p->noffs;
    }
  const uint32_t *at = bsearch (&off, p->offs, p->noffs, sizeof *p->offs,
                                 cmp_u32);
  return at ? (int64_t) (at - p->offs) + 1 : 0; /* index 0 is "" */
}

/* ---- samples -------------------------------------------------------------- */

/* A Label: KEY with the string STR_VAL, or (STR_VAL NULL) the number NUM
   in UNIT (NULL: none), into P->sample. */
static void
label (struct pp *p, struct pb *sample, const char *key, const char *str_val,
       int64_t num, const char *unit)
{
  pb_clear (&p->sub2);
  pb_varint (&p->sub2, LABEL_KEY, (uint64_t) str (p, key));
  if (str_val)
    pb_varint (&p->sub2, LABEL_STR, (uint64_t) str (p, str_val));
  else
    {
      pb_varint (&p->sub2, LABEL_NUM, (uint64_t) num);
      if (unit)
        pb_varint (&p->sub2, LABEL_NUM_UNIT, (uint64_t) str (p, unit));
    }
  pb_msg (sample, SAMPLE_LABEL, &p->sub2);
}

static int
sample (void *ctx, const struct ex_sample *x)
{
  struct pp *p = ctx;
  const struct view *v = p->v;
  struct pb *s = &p->sub;
  pb_clear (s);
  /* location_id: the leaf first */
  pb_clear (&p->sub3);
  for (uint32_t k = x->n; k > 0; k--)
    {
      pb_raw_varint (&p->sub3, (uint64_t) x->stack[k - 1] + 1);
      p->used[x->stack[k - 1]] = 1;
    }
  pb_msg (s, SAMPLE_LOCATION_ID, &p->sub3);
  pb_clear (&p->sub3);
  pb_raw_varint (&p->sub3, (uint64_t) ex_int (x->execs));
  if (p->have_work)
    pb_raw_varint (&p->sub3, (uint64_t) ex_int (x->execs * x->cost));
  pb_msg (s, SAMPLE_VALUE, &p->sub3);

  label (p, s, "profile", scr_screen_name (x->profile), 0, NULL);
  label (p, s, "length", NULL, x->len, "blocks");
  label (p, s, "value", x->value, 0, NULL);
  if (strcmp (x->value, "estimate") == 0)
    {
      label (p, s, "executions_err95", NULL, ex_int (x->err95), "count");
      if (p->have_work)
        label (p, s, "work_err95", NULL, ex_int (x->err95 * x->cost),
               "cost");
    }
  if (x->profile == SCR_SUBPATHS)
    label (p, s, "rank", NULL, view_subpath (v, x->index)->rank, NULL);
  else if (x->profile == SCR_PATHS)
    label (p, s, "rank", NULL, view_path (v, x->index)->rank, NULL);
  else
    label (p, s, "depth", NULL, x->depth, "levels");
  if (x->profile != SCR_SUBPATHS)
    {
      /* an id, not a quantity: a string (pprof also drops a number
         label of 0 without a unit, and path 0 is a path) */
      char id[24];
      snprintf (id, sizeof id, "%llu",
                (unsigned long long) (x->profile == SCR_PATHS
                                          ? view_path (v, x->index)->id
                                          : view_forest (v, x->index)->id));
      label (p, s, "path_id", id, 0, NULL);
    }
  if (x->truncated)
    label (p, s, "truncated", "root end left out", 0, NULL);
  pb_msg (&p->prof, PROFILE_SAMPLE, s);
  return p->oom || s->oom || p->prof.oom ? -1 : 0;
}

/* ---- the rest of the profile ------------------------------------------- */

static void
value_type (struct pp *p, uint32_t field, const char *type, const char *unit)
{
  pb_clear (&p->sub);
  pb_varint (&p->sub, VALUETYPE_TYPE, (uint64_t) str (p, type));
  pb_varint (&p->sub, VALUETYPE_UNIT, (uint64_t) str (p, unit));
  pb_msg (&p->prof, field, &p->sub);
}

static void
comment (struct pp *p, const char *fmt, const char *a, const char *b)
{
  char *line = NULL;
  if (asprintf (&line, fmt, a, b) < 0)
    {
      p->oom = 1;
      return;
    }
  pb_varint (&p->prof, PROFILE_COMMENT, (uint64_t) str (p, line));
  free (line);
}

/* The profile's header fields: sample types, times, period, comments. */
static void
header (struct pp *p, const struct source *src, unsigned screens)
{
  const struct view *v = p->v;
  const struct osp_vrun *r = &v->run;
  value_type (p, PROFILE_SAMPLE_TYPE, "executions", "count");
  if (p->have_work)
    value_type (p, PROFILE_SAMPLE_TYPE, "work", "cost");
  pb_varint (&p->prof, PROFILE_DEFAULT_SAMPLE_TYPE,
             (uint64_t) str (p, p->have_work ? "work" : "executions"));
  uint64_t taken = v->hdr->time_ns;
  if (r->start_ns && taken >= r->start_ns)
    {
      pb_varint (&p->prof, PROFILE_TIME_NANOS, r->start_ns);
      pb_varint (&p->prof, PROFILE_DURATION_NANOS, taken - r->start_ns);
    }
  else if (taken)
    pb_varint (&p->prof, PROFILE_TIME_NANOS, taken);
  value_type (p, PROFILE_PERIOD_TYPE, "executions", "count");
  pb_varint (&p->prof, PROFILE_PERIOD, 1);

  char num[64];
  comment (p, "osp profile of %s%s", view_str (v, r->program), "");
  comment (p, "args: %s%s", view_str (v, r->args), "");
  snprintf (num, sizeof num, "%lld", (long long) r->pid);
  comment (p, "pid: %s%s", num, "");
  snprintf (num, sizeof num, "%llu", (unsigned long long) r->instance_id);
  comment (p, "instance: %s%s", num, "");
  comment (p, "OSP_OPTIONS=%s%s", view_str (v, r->options), "");
  char pol[256];
  snprintf (pol, sizeof pol, "mode=%s paths=%s forest=%s",
            view_str (v, r->mode), view_str (v, r->paths),
            view_str (v, r->forest));
  comment (p, "%s%s", pol, "");
  comment (p, "source: %s %s",
           src->kind == SRC_FILE ? "snapshot" : "live segment",
           source_name (src));
  if (src->kind == SRC_FILE && (src->snap.hdr.flags & OSP_SNAP_MERGED))
    comment (p, "merged from several runs (ospview --merge)%s%s", "", "");
  char which[64] = "";
  for (unsigned k = SCR_SUBPATHS; k <= SCR_FOREST; k++)
    if (screens >> k & 1)
      {
        strcat (which, which[0] ? ", " : "");
        strcat (which, scr_screen_name ((enum scr_screen) k));
      }
  comment (p, "samples: the rows of %s (label profile); they overlap, so "
           "pick one: pprof -tagfocus=profile=^%s$",
           which[0] ? which : "none",
           screens >> SCR_PATHS & 1 ? "paths" : "subpaths");
}

/* The locations of the blocks the samples pass, their functions, the
   mapping, and last the string table (every index is taken by then). */
static void
trailer (struct pp *p)
{
  const struct view *v = p->v;
  unsigned char *fn_used = calloc (v->nfns ? v->nfns : 1, 1);
  if (fn_used == NULL)
    {
      p->oom = 1;
      return;
    }
  pb_clear (&p->sub);
  pb_varint (&p->sub, MAPPING_ID, 1);
  pb_varint (&p->sub, MAPPING_FILENAME,
             (uint64_t) str (p, view_str (v, v->run.program)));
  pb_varint (&p->sub, MAPPING_HAS_FUNCTIONS, 1);
  pb_varint (&p->sub, MAPPING_HAS_FILENAMES, 1);
  pb_varint (&p->sub, MAPPING_HAS_LINE_NUMBERS, 1);
  pb_msg (&p->prof, PROFILE_MAPPING, &p->sub);
  for (uint64_t b = 0; b < v->nblocks; b++)
    if (p->used[b])
      {
        const struct osp_vblock *bl = view_block (v, b);
        fn_used[bl->fn] = 1;
        pb_clear (&p->sub2);
        pb_varint (&p->sub2, LINE_FUNCTION_ID, (uint64_t) bl->fn + 1);
        pb_varint (&p->sub2, LINE_LINE, bl->first_line);
        pb_clear (&p->sub);
        pb_varint (&p->sub, LOCATION_ID, b + 1);
        pb_varint (&p->sub, LOCATION_MAPPING_ID, 1);
        pb_msg (&p->sub, LOCATION_LINE, &p->sub2);
        pb_msg (&p->prof, PROFILE_LOCATION, &p->sub);
      }
  for (uint64_t f = 0; f < v->nfns; f++)
    if (fn_used[f])
      {
        const struct osp_vfn *fn = view_fn (v, f);
        int64_t name = str (p, view_str (v, fn->name));
        pb_clear (&p->sub);
        pb_varint (&p->sub, FUNCTION_ID, f + 1);
        pb_varint (&p->sub, FUNCTION_NAME, (uint64_t) name);
        pb_varint (&p->sub, FUNCTION_SYSTEM_NAME, (uint64_t) name);
        pb_varint (&p->sub, FUNCTION_FILENAME,
                   (uint64_t) str (p, view_str (v, fn->file)));
        pb_varint (&p->sub, FUNCTION_START_LINE, fn->first_line);
        pb_msg (&p->prof, PROFILE_FUNCTION, &p->sub);
      }
  free (fn_used);
  pb_bytes (&p->prof, PROFILE_STRING_TABLE, "", 0);
  for (size_t i = 0; i < p->noffs; i++)
    {
      const char *s = p->strs.buf + p->offs[i];
      pb_bytes (&p->prof, PROFILE_STRING_TABLE, s, strlen (s));
    }
}

/* The LEN bytes at DATA to PATH ("-": stdout).  0, or -1 after one
   stderr line. */
static int
write_out (const char *path, const void *data, size_t len)
{
  if (strcmp (path, "-") == 0)
    {
      if (fwrite (data, 1, len, stdout) != len)
        {
          ospview_error ("writing the output: %s", strerror (errno));
          return -1;
        }
      return 0;
    }
  const void *bufs[1] = { data };
  int e = osp_file_replace_mode (path, bufs, &len, 1, 0600);
  if (e != 0)
    {
      ospview_error ("cannot write %s: %s", path, osp_file_strerror (e));
      return -1;
    }
  return 0;
}

int
export_pprof (const struct source *s, const struct view *v, const char *path,
              unsigned screens)
{
  if (*path == '\0')
    {
      ospview_error ("--pprof needs an output file name (- for stdout)");
      return 1;
    }
  struct pp p;
  memset (&p, 0, sizeof p);
  p.v = v;
  p.have_work = v->costs != NULL;
  p.used = calloc (v->nblocks ? v->nblocks : 1, 1);
  struct pb gz = { 0 };
  int rc = 1;
  if (p.used != NULL && osp_strtab_init (&p.strs) == 0)
    {
      header (&p, s, screens);
      int r = ex_samples (v, screens, sample, &p);
      if (r == 0 && !p.oom)
        trailer (&p);
      if (r == 0 && !p.oom && !p.prof.oom && !p.sub.oom && !p.sub2.oom
          && pb_gzip (&gz, p.prof.p, p.prof.n,
                      (uint32_t) (v->hdr->time_ns / 1000000000u))
                 == 0)
        rc = write_out (path, gz.p, gz.n) == 0 ? 0 : 1;
      else
        ospview_error ("out of memory");
      osp_strtab_free (&p.strs);
    }
  else
    ospview_error ("out of memory");
  free (p.used);
  free (p.offs);
  pb_free (&p.prof);
  pb_free (&p.sub);
  pb_free (&p.sub2);
  pb_free (&p.sub3);
  pb_free (&gz);
  return rc;
}
