/* SPDX-License-Identifier: MIT */
/* t_subexact.c - mode=subpaths-exact against brute force: on a random
 * block stream over two functions, every subpath of length 2..16 has
 * exactly its number of occurrences, no more and no fewer entries; with a
 * table too small, what is not counted is counted as exact_dropped; the
 * report shows the exact form (estimate = count, error 0); a thread whose
 * batch cannot be allocated loses its entries and still looks for a
 * viewer's request only once every few hundred of them. */
#include "testutil.h"

#include "osprt.h"

#include <sys/resource.h>

static struct osp_fn_record recs[2] __attribute__ ((aligned (8)));
static uint32_t cfg_a[64], cfg_b[64];
static uint32_t *stream;
static size_t n;
static uint32_t cmp_len;

static void
run (size_t nblocks)
{
  osp_test_chain (&recs[0], cfg_a, "fa", "a.c", 3, 10);
  osp_test_chain (&recs[1], cfg_b, "fb", "b.c", 5, 20);
  __osp_register_module (OSP_ABI_VERSION, recs, recs + 2);
  n = nblocks;
  stream = malloc (n * sizeof *stream);
  uint64_t x = 88172645463325252u;
  uint32_t g = 0;
  for (size_t i = 0; i < n; i++)
    {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      /* A biased random walk: repeats make counts above 1 common. */
      g = (x % 4 == 0) ? (uint32_t) (x >> 32) % 8 : (g + 1) % 8;
      stream[i] = g; /* global ids: fa is 0..2, fb 3..7 */
      if (g < 3)
        osp_test_block (&recs[0], g);
      else
        osp_test_block (&recs[1], g - 3);
    }
  osp_exact_sync (osp_thread_peek ());
}

static int
by_window (const void *a, const void *b)
{
  return memcmp (stream + *(const size_t *) a, stream + *(const size_t *) b,
                 cmp_len * sizeof *stream);
}

static int
scenario_exact (void)
{
  run (30000);
  struct osp_profile p;
  CHECK_EQ (osp_profile_take (&p), 0);
  CHECK_EQ (p.subpaths.walk[OSP_W_BLOCKS_SEEN], n);
  CHECK_EQ (p.subpaths.exact_dropped, 0);
  uint64_t windows = 0, distinct = 0;
  size_t *idx = malloc (n * sizeof *idx);
  for (uint32_t len = 2; len <= 16; len *= 2)
    {
      size_t m = n - len + 1;
      windows += m;
      for (size_t i = 0; i < m; i++)
        idx[i] = i;
      cmp_len = len;
      qsort (idx, m, sizeof *idx, by_window);
      for (size_t i = 0; i < m; i++)
        distinct += i == 0 || by_window (&idx[i - 1], &idx[i]) != 0;
      /* Every entry of this length: its run in the sorted windows. */
      for (uint32_t e = 0; e < p.subpaths.nsubs; e++)
        {
          const struct osp_subpath *s = &p.subpaths.subs[e];
          if (s->len != len)
            continue;
          size_t lo = 0, hi = m;
          while (lo < hi)
            {
              size_t mid = (lo + hi) / 2;
              if (memcmp (stream + idx[mid], s->blocks, len * 4) < 0)
                lo = mid + 1;
              else
                hi = mid;
            }
          uint64_t c = 0;
          while (lo + c < m
                 && memcmp (stream + idx[lo + c], s->blocks, len * 4) == 0)
            c++;
          if (c != s->count)
            {
              fprintf (stderr, "entry %u len %u: count %llu, brute %llu\n", e,
                       len, (unsigned long long) s->count,
                       (unsigned long long) c);
              osp_test_failures++;
            }
          CHECK (s->estimate == (double) s->count && s->err95 == 0);
        }
    }
  fprintf (stderr, "exact: %u entries, %llu distinct windows, %llu windows\n",
           p.subpaths.nsubs, (unsigned long long) distinct,
           (unsigned long long) windows);
  CHECK_EQ (p.subpaths.nsubs, distinct);
  CHECK_EQ (p.subpaths.exact_entries, distinct);
  CHECK_EQ (p.subpaths.walk[OSP_W_SAMPLES], windows);
  uint64_t sum = 0;
  for (uint32_t e = 0; e < p.subpaths.nsubs; e++)
    sum += p.subpaths.subs[e].count;
  CHECK_EQ (sum, windows);

  struct osp_options o = osp_opts;
  o.report_top = 3;
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&buf, &len);
  CHECK_EQ (osp_report_format (f, &p, &o), 0);
  fclose (f);
  CHECK_CONTAINS (buf, "osp report: mode=subpaths-exact ");
  CHECK_CONTAINS (buf, "subpaths: exact\n");
  CHECK_CONTAINS (buf, "hottest subpaths (3 of ");
  free (buf);
  o.report_format = OSP_FORMAT_TSV;
  f = open_memstream (&buf, &len);
  CHECK_EQ (osp_report_format (f, &p, &o), 0);
  fclose (f);
  CHECK_CONTAINS (buf, "# osp-report 1 mode=subpaths-exact\n");
  CHECK_CONTAINS (buf, "\nstat\texact_dropped\t0\n");
  /* The top subpath: rank 1, error 0, ids decoded as fid:block. */
  char want[128];
  snprintf (want, sizeof want, "\nsubpath\t1\t%u\t%llu.000\t0.000\t%llu\t",
            p.subpaths.subs[0].len,
            (unsigned long long) p.subpaths.subs[0].count,
            (unsigned long long) p.subpaths.subs[0].count);
  CHECK_CONTAINS (buf, want);
  free (buf);
  free (idx);
  osp_profile_free (&p);
  return osp_test_failures ? 1 : 0;
}

static int
scenario_full (void)
{
  run (30000);
  struct osp_profile p;
  CHECK_EQ (osp_profile_take (&p), 0);
  uint64_t windows = 0;
  for (uint32_t len = 2; len <= 16; len *= 2)
    windows += n - len + 1;
  fprintf (stderr, "full: %llu counted, %llu dropped, %u entries\n",
           (unsigned long long) p.subpaths.walk[OSP_W_SAMPLES],
           (unsigned long long) p.subpaths.exact_dropped, p.subpaths.nsubs);
  CHECK (p.subpaths.exact_dropped > 0);
  CHECK_EQ (p.subpaths.walk[OSP_W_SAMPLES] + p.subpaths.exact_dropped,
            windows);
  CHECK (p.subpaths.exact_bytes_used <= 65536);
  osp_profile_free (&p);
  return osp_test_failures ? 1 : 0;
}

static unsigned polls;

static void
count_poll (void)
{
  polls++;
}

/* The address space this process has mapped, in bytes (0 unknown). */
static unsigned long long
vm_bytes (void)
{
  unsigned long long pages = 0;
  FILE *f = fopen ("/proc/self/statm", "r");
  if (f != NULL)
    {
      if (fscanf (f, "%llu", &pages) != 1)
        pages = 0;
      fclose (f);
    }
  return pages * (unsigned long long) sysconf (_SC_PAGESIZE);
}

/* exact_max=65536: the batch (256 KB and more) is a mapping of its own,
   which an address space limit just above what is mapped refuses.  Every
   entry is lost then; the entries must still look for a viewer's request
   only once every few hundred (runtime.c, poll_sometimes), as the others
   of the mode: they looked at each (osp_exact_hit said "look" whenever
   it had no batch). */
static int
scenario_nomem (void)
{
  osp_test_chain (&recs[0], cfg_a, "fa", "a.c", 3, 10);
  __osp_register_module (OSP_ABI_VERSION, recs, recs + 1);
  /* The thread's state first, as the first entry would make it. */
  osp_in_runtime = OSP_RUNTIME_PINNED;
  CHECK (osp_thread_self () != NULL);
  osp_in_runtime = 0;
  struct rlimit old, r;
  CHECK_EQ (getrlimit (RLIMIT_AS, &old), 0);
  unsigned long long vm = vm_bytes ();
  CHECK (vm > 0);
  r = old;
  r.rlim_cur = (rlim_t) (vm + 128 * 1024);
  if (old.rlim_max != RLIM_INFINITY && r.rlim_cur > old.rlim_max)
    r.rlim_cur = old.rlim_max;
  static const _Atomic uint32_t due = 1; /* a request always waits */
  osp_entry_work = count_poll;
  uint64_t lost0 = atomic_load (&osp_stats.hits_lost);
  uint32_t entries = 8 * 256;
  CHECK_EQ (setrlimit (RLIMIT_AS, &r), 0);
  atomic_store (&osp_entry_watch, &due);
  for (uint32_t i = 0; i < entries; i++)
    osp_test_block (&recs[0], i % 3);
  atomic_store (&osp_entry_watch, NULL);
  CHECK_EQ (setrlimit (RLIMIT_AS, &old), 0);
  uint64_t lost = atomic_load (&osp_stats.hits_lost) - lost0;
  fprintf (stderr, "nomem: %u entries, %llu lost, %u looks\n", entries,
           (unsigned long long) lost, polls);
  CHECK_EQ (lost, entries);
  CHECK (polls >= 1 && polls <= entries / 64);
  return osp_test_failures ? 1 : 0;
}

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "exact") == 0)
    return scenario_exact ();
  if (argc > 1 && strcmp (argv[1], "full") == 0)
    return scenario_full ();
  if (argc > 1 && strcmp (argv[1], "nomem") == 0)
    return scenario_nomem ();
  CHECK_EQ (osp_test_run ("exact",
                          "mode=subpaths-exact:exact_max=16:report=none",
                          NULL, NULL),
            0);
  CHECK_EQ (osp_test_run ("full",
                          "mode=subpaths-exact:exact_max=16:exact_bytes=64K:"
                          "report=none",
                          NULL, NULL),
            0);
  CHECK_EQ (osp_test_run ("nomem",
                          "mode=subpaths-exact:exact_max=65536:"
                          "exact_bytes=64K:report=none:publish=off",
                          NULL, NULL),
            0);
  return osp_test_done ("t_subexact");
}
