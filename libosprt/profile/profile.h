/* SPDX-License-Identifier: MIT */
/* profile.h - libosprt's profile: everything a report shows, taken from
 * the collectors at one moment (profile.c).  The only thing the outputs
 * (output/: reports, views, snapshots) read; they never ask a collector.
 * The statistics' sink (osp_stat_*) lives here so that the text, tsv and
 * view writers carry the same names, values and order.
 */
#ifndef OSP_PROFILE_H
#define OSP_PROFILE_H

#include "collect/collect.h"

/* Everything a report shows, taken at one moment. */
struct osp_profile
{
  struct osp_fn **fns;
  uint64_t **counts; /* counts[i][b]: block b of fns[i] */
  uint64_t *words;   /* the memory of all counts[i] */
  uint32_t nfns;
  struct osp_module *mods;
  uint32_t nmods;
  uint64_t modules, functions, functions_dropped, records_invalid;
  uint64_t abi_mismatches, unregistered_hits, hits_lost, threads;
  uint64_t output_skipped;
  long pid;
  /* Subpath modes (empty in mode=blocks). */
  enum osp_mode mode;
  struct osp_subpaths_part subpaths; /* the mode's collector's */
  uint64_t seed;
  struct osp_path_profile paths; /* every mode */
  struct osp_forest_profile forest; /* every mode */
  int live; /* for a live view: the forest builds only report_top trees */
};

/* Take a profile of the running process.  Returns 0 or -1. */
int osp_profile_take (struct osp_profile *p);
/* The same for a live view (the publisher): the prefix forest's k-IPF is
   built for the report_top trees shown only (osp_ipf_build_top), so the
   rows are those of osp_profile_take but forest_trees counts only the
   trees whose root counted and forest_ipf_nodes the nodes built. */
int osp_profile_take_live (struct osp_profile *p);
void osp_profile_free (struct osp_profile *p);
/* Shared by the formats: whether block B of F has a count (F has block
   hooks and B is not OSP_BB_NO_HOOK).  (Shares: osp_share, base.h.) */
int osp_block_counted (const struct osp_fn *f, uint32_t b);
/* Where the statistics of a profile go: the tsv report's `stat' rows
   (FILE set), or one call of FN per statistic (the view's STATS,
   viewwrite.c), so that both carry the same names, values and order. */
enum osp_stat_kind { OSP_STAT_U, OSP_STAT_F, OSP_STAT_S };
struct osp_stat_out
{
  FILE *file;
  void (*fn) (void *arg, const char *name, enum osp_stat_kind kind,
              uint64_t u, double f, const char *s);
  void *arg;
};
/* One statistic: an integer, a string, a number (tsv: %.6g). */
void osp_stat_u (const struct osp_stat_out *out, const char *name,
                 uint64_t v);
void osp_stat_s (const struct osp_stat_out *out, const char *name,
                 const char *v);
void osp_stat_f (const struct osp_stat_out *out, const char *name,
                 double v);
#endif /* OSP_PROFILE_H */
