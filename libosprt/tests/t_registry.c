/* SPDX-License-Identifier: MIT */
/* t_registry.c - records: validation of hand-made and hostile records,
 * registration through __osp_register_module (repeats, padding, records of
 * another ABI, max_functions overflow), the copies outliving the records,
 * and the hook's handling of unregistered, forged and out-of-range calls,
 * of reentrancy and of a runtime frame abandoned by a signal handler's
 * longjmp; runtime locks block signals, and exit waits for them bounded;
 * packed records (osp/pack.h) unpack to their words, hostile ones are
 * refused. */
#include "testutil.h"

#include "osprt.h"
#include "osp/pack.h"

#include <fcntl.h>
#include <signal.h>

static uint64_t
stat_of (atomic_uint_fast64_t *s)
{
  return atomic_load (s);
}

static uint64_t
count_of (const char *name, uint32_t block)
{
  struct osp_profile p;
  uint64_t c = UINT64_MAX;
  if (osp_profile_take (&p) != 0)
    return c;
  for (uint32_t i = 0; i < p.nfns; i++)
    if (strcmp (p.fns[i]->name, name) == 0)
      c = p.counts[i][block];
  osp_profile_free (&p);
  return c;
}

static void
test_check (void)
{
  struct osp_fn_record r;
  uint32_t cfg[64];
  osp_test_chain (&r, cfg, "f", "f.c", 3, 10);
  CHECK (osp_record_check (&r) == NULL);

  struct osp_fn_record h = r;
  h.magic = 0;
  CHECK (osp_record_check (&h) != NULL);
  h = r;
  h.abi_version = 99;
  CHECK (osp_record_check (&h) != NULL);
  h = r;
  h.nblocks = 0;
  CHECK (osp_record_check (&h) != NULL);
  h = r;
  h.cfg = NULL;
  CHECK (osp_record_check (&h) != NULL);
  h = r;
  h.cfg_len--; /* last successor pair cut */
  CHECK (osp_record_check (&h) != NULL);
  h = r;
  h.cfg_len = 0;
  CHECK (osp_record_check (&h) != NULL);
  h = r;
  h.nblocks = UINT32_MAX; /* 4 * nblocks overflows 32 bits */
  CHECK (osp_record_check (&h) != NULL);
  h = r;
  h.nblocks = 2; /* trailing words */
  CHECK (osp_record_check (&h) != NULL);
  h = r;
  h.nblocks = 4; /* more blocks than words */
  CHECK (osp_record_check (&h) != NULL);

  uint32_t bad[64];
  memcpy (bad, cfg, sizeof cfg);
  bad[3] = UINT32_MAX; /* nsucc of block 0: 2 * nsucc overflows */
  h = r;
  h.cfg = bad;
  CHECK (osp_record_check (&h) != NULL);
  memcpy (bad, cfg, sizeof cfg);
  bad[3] = 0x80000000u;
  CHECK (osp_record_check (&h) != NULL);
  memcpy (bad, cfg, sizeof cfg);
  bad[4] = 3; /* successor == nblocks */
  CHECK (osp_record_check (&h) != NULL);
  bad[4] = OSP_BLOCK_EXIT - 1;
  CHECK (osp_record_check (&h) != NULL);
  bad[4] = OSP_BLOCK_EXIT; /* an exit edge from block 0 is fine */
  CHECK (osp_record_check (&h) == NULL);

  /* Zero successors everywhere and no lines: valid. */
  uint32_t flat[8] = { 0, 0, OSP_BB_ENTRY, 0, 0, 0, 0, 0 };
  h = r;
  h.cfg = flat;
  h.nblocks = 2;
  h.cfg_len = 8;
  CHECK (osp_record_check (&h) == NULL);

  /* Statement lines (ABI 7): block 1 spans 11..15, statements on 11, 13
     and 15; the others are runs (0). */
  uint32_t lcfg[64];
  memcpy (lcfg, cfg, sizeof cfg);
  lcfg[7] = 15; /* block 1's last line */
  uint32_t lines[8] = { 0, 3, 11, 13, 15, 0, 0, 0 };
  h = r;
  h.cfg = lcfg;
  h.lines = lines;
  h.lines_len = 6;
  CHECK (osp_record_check (&h) == NULL);
  h.lines_len = 5; /* the last block's word cut */
  CHECK (osp_record_check (&h) != NULL);
  h.lines_len = 7; /* a word too many */
  CHECK (osp_record_check (&h) != NULL);
  h.lines_len = 6;
  lines[3] = 16; /* not ascending */
  CHECK (osp_record_check (&h) != NULL);
  lines[3] = 13;
  lines[2] = 12; /* not from the block's first line */
  CHECK (osp_record_check (&h) != NULL);
  lines[2] = 11;
  lines[1] = 1; /* one line is a run: 0 */
  CHECK (osp_record_check (&h) != NULL);
  lines[1] = UINT32_MAX; /* past the words */
  CHECK (osp_record_check (&h) != NULL);
  lines[1] = 3;
  h.lines = NULL; /* a length without words */
  CHECK (osp_record_check (&h) != NULL);
  h.lines_len = 0; /* no lines: the ranges */
  CHECK (osp_record_check (&h) == NULL);
}

/* A fake osp_fns section: records separated by zero padding, one
   malformed, one of another ABI, one junk word with the magic. */
static struct
{
  struct osp_fn_record a;
  uint64_t pad1[3];
  struct osp_fn_record bad;
  struct osp_fn_record b;
  uint32_t pad2[2];
  struct osp_fn_record other_abi;
  struct osp_fn_record c;
} __attribute__ ((aligned (8))) sec;

static uint32_t cfg_a[64], cfg_b[64], cfg_bad[64], cfg_other[64], cfg_c[64];

static void
test_register (void)
{
  osp_test_chain (&sec.a, cfg_a, "fa", "a.c", 2, 100);
  osp_test_chain (&sec.bad, cfg_bad, "fbad", "bad.c", 2, 1);
  cfg_bad[4] = 7; /* successor out of range */
  osp_test_chain (&sec.b, cfg_b, "fb", "b.c", 3, 200);
  osp_test_chain (&sec.other_abi, cfg_other, "fo", "o.c", 2, 1);
  sec.other_abi.abi_version = 99;
  osp_test_chain (&sec.c, cfg_c, "fc", "c.c", 1, 0);
  /* A stray magic and version in padding: its "record" overlaps the next
     one and fails the checks, and must not damage it. */
  sec.pad2[0] = OSP_FN_MAGIC;
  sec.pad2[1] = OSP_ABI_VERSION;

  /* A hook before registration counts as unregistered. */
  uint64_t unreg = stat_of (&osp_stats.unregistered_hits);
  osp_test_block (&sec.a, 0);
  CHECK_EQ (stat_of (&osp_stats.unregistered_hits), unreg + 1);

  /* Capture the ABI line on fd 2. */
  char *dir = osp_test_tmpdir ();
  char errpath[4200];
  snprintf (errpath, sizeof errpath, "%s/err", dir);
  fflush (stderr);
  int saved = dup (2);
  int fd = open (errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  dup2 (fd, 2);
  close (fd);
  osp_output_init (); /* the file is fd 2 as of start-up (report.c) */
  for (int rep = 0; rep < 3; rep++) /* once per translation unit */
    __osp_register_module (OSP_ABI_VERSION, &sec.a,
                           (struct osp_fn_record *) (&sec + 1));
  dup2 (saved, 2);
  close (saved);
  osp_output_init ();
  char *err = osp_test_slurp (errpath);
  char want[128];
  snprintf (want, sizeof want, "was built for osp ABI 99 but this runtime "
            "is ABI %u; that module runs unprofiled\n", OSP_ABI_VERSION);
  CHECK_CONTAINS (err, want);
  CHECK (err && strchr (err, '\n') == err + strlen (err) - 1); /* one line */
  free (err);
  unlink (errpath);
  rmdir (dir);
  free (dir);

  CHECK_EQ (stat_of (&osp_stats.functions), 3);
  CHECK_EQ (stat_of (&osp_stats.modules), 1);
  CHECK_EQ (stat_of (&osp_stats.abi_mismatches), 1);
  CHECK_EQ (stat_of (&osp_stats.records_invalid), 2); /* bad + stray */
  CHECK_EQ (sec.a.id, 1);
  CHECK_EQ (sec.b.id, 2);
  CHECK_EQ (sec.c.id, 3);
  CHECK_EQ (sec.bad.id, 0);
  CHECK_EQ (sec.other_abi.id, 0);
  CHECK_EQ (sec.other_abi.magic, OSP_FN_MAGIC);
  CHECK_EQ (osp_registry_count (), 3);

  struct osp_fn *fb = osp_fn_by_id (2);
  CHECK (fb != NULL && strcmp (fb->name, "fb") == 0);
  CHECK (fb && fb->nblocks == 3 && fb->nedges == 3 && fb->first_line == 200);
  CHECK (fb && fb->blocks[2].line_first == 202
         && fb->edges[fb->blocks[2].succ].dst == OSP_BLOCK_EXIT);
  CHECK (osp_fn_by_id (4) == NULL && osp_fn_by_id (0) == NULL);

  /* Counting, and the hook's defences. */
  for (int i = 0; i < 10; i++)
    osp_test_block (&sec.b, 1);
  CHECK_EQ (count_of ("fb", 1), 10);

  uint64_t lost = stat_of (&osp_stats.hits_lost);
  osp_test_block (&sec.b, 3); /* block out of range */
  osp_test_block (&sec.b, UINT32_MAX);
  CHECK_EQ (stat_of (&osp_stats.hits_lost), lost + 2);

  unreg = stat_of (&osp_stats.unregistered_hits);
  osp_test_block (&sec.bad, 0);       /* rejected record */
  osp_test_block (&sec.other_abi, 0); /* other ABI */
  struct osp_fn_record forged = sec.b; /* a copy carrying b's id */
  osp_test_block (&forged, 0);
  forged.id = 12345;
  osp_test_block (&forged, 0);
  CHECK_EQ (stat_of (&osp_stats.unregistered_hits), unreg + 4);
  CHECK_EQ (count_of ("fb", 0), 0);

  /* A hook nested in the runtime (a signal handler's) only re-arms. */
  lost = stat_of (&osp_stats.hits_lost);
  osp_in_runtime = 1;
  __osp_skip = 1;
  osp_test_block (&sec.b, 0);
  CHECK_EQ (__osp_skip, 1);
  osp_in_runtime = 0;
  CHECK_EQ (stat_of (&osp_stats.hits_lost), lost + 1);
  CHECK_EQ (count_of ("fb", 0), 0);
}

/* The runtime keeps copies: a module's records and strings may go away. */
static void
test_copies (void)
{
  struct osp_fn_record *r = calloc (2, sizeof *r);
  uint32_t *cfg = calloc (64, sizeof *cfg);
  char *name = strdup ("heap_fn\twith\ttabs"), *file = strdup ("heap.c");
  osp_test_chain (&r[0], cfg, name, file, 4, 50);
  /* block 2 spans 52..57 with statements on 52, 55 and 57 */
  cfg[2 * 6 + 1] = 57;
  uint32_t *lines = calloc (8, sizeof *lines);
  memcpy (lines, (uint32_t[]) { 0, 0, 3, 52, 55, 57, 0 }, 7 * sizeof *lines);
  r[0].lines = lines;
  r[0].lines_len = 7;
  __osp_register_module (OSP_ABI_VERSION, r, r + 2);
  struct osp_fn *f = osp_fn_of_record (&r[0]);
  CHECK (f != NULL);
  for (int i = 0; i < 5; i++)
    osp_test_block (&r[0], 3);
  memset (cfg, 0xff, 64 * sizeof *cfg);
  memset (name, 'x', strlen (name));
  free (name);
  free (file);
  free (cfg);
  memset (lines, 0xff, 8 * sizeof *lines);
  free (lines);
  /* A new mapping at the same address starts unregistered (id 0). */
  memset (r, 0, 2 * sizeof *r);
  free (r);
  CHECK (f && strcmp (f->name, "heap_fn?with?tabs") == 0);
  CHECK (f && strcmp (f->file, "heap.c") == 0);
  CHECK (f && f->blocks[3].line_first == 53);
  CHECK (f && f->blocks[2].nlines == 3 && f->blocks[3].nlines == 0);
  CHECK (f && f->nlines == 3 && f->lines[f->blocks[2].lines] == 52
         && f->lines[f->blocks[2].lines + 1] == 55
         && f->lines[f->blocks[2].lines + 2] == 57);
  CHECK_EQ (count_of ("heap_fn?with?tabs", 3), 5);
  CHECK_EQ (stat_of (&osp_stats.modules), 2);
}

/* A runtime frame that a signal handler left by longjmp leaves the
   re-entrancy flag set with that frame's stack mark: the next hook from
   at or above it recovers (is counted; only the abandoned hook is lost),
   while one below a live frame (a signal handler's inside a hook) is
   lost.  Simulated with marks above and below this frame. */
static struct osp_fn_record ab_rec[1] __attribute__ ((aligned (8)));
static volatile uintptr_t alt_flag, alt_here;
static volatile int alt_counted;
static uint64_t alt_before;

static void
on_alt (int sig)
{
  (void) sig;
  alt_here = osp_stack_mark ();
  /* A frame on the main stack: perhaps the one this handler interrupted,
     so not judged (lost). */
  osp_in_runtime = alt_flag;
  __osp_skip = 1;
  osp_test_block (&ab_rec[0], 1);
  alt_counted = osp_in_runtime == alt_flag;
  /* A dead frame below us on the alternate stack: recovered. */
  osp_in_runtime = alt_here - 4096;
  __osp_skip = 1;
  osp_test_block (&ab_rec[0], 1);
  alt_counted += osp_in_runtime == 0;
}

static void
test_abandoned (void)
{
  static uint32_t cfg[6 * 3];
  osp_test_chain (&ab_rec[0], cfg, "ab", "ab.c", 3, 1);
  __osp_register_module (OSP_ABI_VERSION, ab_rec, ab_rec + 1);
  uint64_t lost = stat_of (&osp_stats.hits_lost);

  /* Live: a frame above ours (we run inside it). */
  uintptr_t live = osp_stack_mark () + 4096;
  osp_in_runtime = live;
  __osp_skip = 1;
  osp_test_block (&ab_rec[0], 1);
  CHECK (osp_in_runtime == live);
  CHECK_EQ (__osp_skip, 1);
  CHECK_EQ (stat_of (&osp_stats.hits_lost), lost + 1);
  CHECK_EQ (count_of ("ab", 1), 0);

  /* Gone: a frame below ours.  Counted, and the flag is clear after. */
  osp_in_runtime = osp_stack_mark () - 4096;
  __osp_skip = 1;
  osp_test_block (&ab_rec[0], 1);
  CHECK (osp_in_runtime == 0);
  CHECK_EQ (stat_of (&osp_stats.hits_lost), lost + 2);
  CHECK_EQ (count_of ("ab", 1), 1);
  for (int i = 0; i < 3; i++)
    osp_test_block (&ab_rec[0], 1);
  CHECK_EQ (count_of ("ab", 1), 4);

  /* Pinned (every runtime path but a hook's): never taken for gone. */
  osp_in_runtime = OSP_RUNTIME_PINNED;
  osp_test_block (&ab_rec[0], 1);
  CHECK (osp_in_runtime == OSP_RUNTIME_PINNED);
  osp_in_runtime = 0;
  CHECK_EQ (count_of ("ab", 1), 4);

  /* On an alternate signal stack. */
  stack_t ss = { .ss_sp = malloc (1 << 16), .ss_size = 1 << 16 };
  CHECK (ss.ss_sp != NULL && sigaltstack (&ss, NULL) == 0);
  struct sigaction sa = { .sa_handler = on_alt, .sa_flags = SA_ONSTACK };
  sigemptyset (&sa.sa_mask);
  sigaction (SIGUSR1, &sa, NULL);
  alt_flag = osp_stack_mark () - 4096; /* below us: gone, on the main stack */
  alt_before = count_of ("ab", 1);
  raise (SIGUSR1);
  CHECK_EQ (alt_counted, 2);
  CHECK_EQ (count_of ("ab", 1), alt_before + 1);
  /* Back on the main stack, a dead frame on the alternate stack is gone. */
  osp_in_runtime = alt_here - 4096;
  osp_test_block (&ab_rec[0], 1);
  CHECK (osp_in_runtime == 0);
  CHECK_EQ (count_of ("ab", 1), alt_before + 2);
  ss.ss_flags = SS_DISABLE;
  sigaltstack (&ss, NULL);
  signal (SIGUSR1, SIG_DFL);
}

/* Every runtime lock blocks the asynchronous signals while it is held:
   no handler can run (and leave by longjmp) in between. */
static volatile sig_atomic_t got_usr2;

static void
on_usr2 (int sig)
{
  (void) sig;
  got_usr2 = 1;
}

static void
test_locks_block_signals (void)
{
  signal (SIGUSR2, on_usr2);
  osp_lock (&osp_threads_lock);
  osp_lock (&osp_hot_lock); /* nested: the outer one's mask stays */
  raise (SIGUSR2);
  CHECK_EQ (got_usr2, 0);
  osp_unlock (&osp_hot_lock);
  raise (SIGUSR2);
  CHECK_EQ (got_usr2, 0);
  osp_unlock (&osp_threads_lock);
  CHECK_EQ (got_usr2, 1); /* delivered at the unlock */
  CHECK_EQ (osp_trylock (&osp_exact_lock), 0);
  got_usr2 = 0;
  raise (SIGUSR2);
  CHECK_EQ (got_usr2, 0);
  osp_unlock (&osp_exact_lock);
  CHECK_EQ (got_usr2, 1);
  signal (SIGUSR2, SIG_DFL);
  const char *which = NULL;
  CHECK_EQ (osp_locks_probe (1000, &which), 0);
  osp_lock (&osp_path_lock);
  CHECK_EQ (osp_locks_probe (50, &which), -1); /* bounded, not for ever */
  CHECK (which != NULL && strcmp (which, "path") == 0);
  osp_unlock (&osp_path_lock);
}

/* Run with OSP_OPTIONS=max_functions=2. */
static int
scenario_cap (void)
{
  static struct osp_fn_record recs[4] __attribute__ ((aligned (8)));
  static uint32_t cfgs[4][16];
  for (int i = 0; i < 4; i++)
    osp_test_chain (&recs[i], cfgs[i], "f", "f.c", 2, 1);
  __osp_register_module (OSP_ABI_VERSION, recs, recs + 3);
  __osp_register_module (OSP_ABI_VERSION, recs, recs + 3);
  __osp_register_module (OSP_ABI_VERSION, recs + 3, recs + 4);
  CHECK_EQ (stat_of (&osp_stats.functions), 2);
  CHECK_EQ (stat_of (&osp_stats.functions_dropped), 2);
  CHECK_EQ (stat_of (&osp_stats.modules), 1);
  CHECK_EQ (recs[0].id, 1);
  CHECK_EQ (recs[1].id, 2);
  uint64_t unreg = stat_of (&osp_stats.unregistered_hits);
  osp_test_block (&recs[2], 0); /* dropped: runs unprofiled */
  CHECK_EQ (stat_of (&osp_stats.unregistered_hits), unreg + 1);
  return osp_test_failures ? 1 : 0;
}

/* An ABI argument from another version: records are left alone. */
static int
scenario_abi_arg (void)
{
  static struct osp_fn_record rec __attribute__ ((aligned (8)));
  static uint32_t cfg[16];
  osp_test_chain (&rec, cfg, "f", "f.c", 2, 1);
  __osp_register_module (OSP_ABI_VERSION + 1, &rec, &rec + 1);
  __osp_register_module (OSP_ABI_VERSION + 1, &rec, &rec + 1);
  CHECK_EQ (stat_of (&osp_stats.functions), 0);
  CHECK_EQ (stat_of (&osp_stats.abi_mismatches), 1);
  /* Degenerate ranges are harmless. */
  __osp_register_module (OSP_ABI_VERSION, &rec + 1, &rec);
  __osp_register_module (OSP_ABI_VERSION, NULL, NULL);
  __osp_register_module (OSP_ABI_VERSION, &rec, &rec);
  CHECK_EQ (stat_of (&osp_stats.functions), 0);
  osp_test_block (&rec, 0);
  return osp_test_failures ? 1 : 0;
}

/* Packed arrays (ABI 9): they unpack to the words they were packed from,
   a record of them passes the checks its words pass, and a packed array
   cut short, too long, with an overlong number or costs that are not one
   a block is refused. */
static void
test_packed (void)
{
  struct osp_fn_record w;
  uint32_t cfg[64], costs[5] = { 3, 1, 200, 70000, 0 }, back[64];
  uint64_t wide[5];
  osp_test_chain (&w, cfg, "f", "f.c", 5, 100000);
  cfg[4 * 6 + 1] = 99990; /* a block whose last line is before its first */
  w.costs = costs;
  CHECK (osp_record_check (&w) == NULL);

  uint8_t pc[5 * 64], pk[64], cut[5 * 64 + 1];
  for (int i = 0; i < 5; i++)
    wide[i] = costs[i];
  struct osp_fn_record p = w;
  p.flags |= OSP_FN_PACKED;
  p.cfg = (const uint32_t *) pc;
  p.cfg_len = (uint32_t) osp_pack_cfg (cfg, w.cfg_len, w.nblocks, pc);
  p.costs = (const uint32_t *) pk;
  p.costs_len = (uint32_t) osp_pack_words (wide, 5, 0, pk);
  CHECK (p.cfg_len < w.cfg_len * 2); /* under half the words' 4 bytes each */
  CHECK_EQ (osp_unpack_cfg (pc, p.cfg_len, 5, back, 64), w.cfg_len);
  CHECK (memcmp (back, cfg, w.cfg_len * sizeof *cfg) == 0);
  CHECK (osp_record_check (&p) == NULL);

  uint64_t pv[4] = { 0, UINT64_MAX, 123456789012345ull, UINT64_MAX - 1 };
  uint64_t pb[4];
  uint8_t pp[40];
  size_t n = osp_pack_words (pv, 4, 1, pp);
  CHECK_EQ (osp_unpack_words (pp, n, pb, NULL, 4), 4);
  CHECK (memcmp (pv, pb, sizeof pv) == 0);
  CHECK_EQ (osp_unpack_words (pp, n, pb, NULL, 3), -1); /* no room */

  struct osp_fn_record h = p;
  h.cfg_len--;
  CHECK_STR (osp_record_check (&h), "packed cfg does not unpack");
  memcpy (cut, pc, p.cfg_len);
  cut[p.cfg_len] = 0;
  h = p;
  h.cfg = (const uint32_t *) cut;
  h.cfg_len = p.cfg_len + 1;
  CHECK_STR (osp_record_check (&h), "packed cfg does not unpack");
  memset (cut, 0xff, 11);
  cut[11] = 0;
  h.cfg_len = 12;
  CHECK_STR (osp_record_check (&h), "packed cfg does not unpack");
  h = p;
  h.costs_len--;
  CHECK_STR (osp_record_check (&h), "packed costs are not one a block");
  h = w;
  h.costs_len = 3;
  CHECK_STR (osp_record_check (&h), "costs_len without packed arrays");
}

int
main (int argc, char **argv)
{
  /* These tests change the runtime's globals (options, the sampler's
     tables, the path table) under it: the publisher thread, which the
     constructor started, must not take a profile meanwhile (a data race
     ThreadSanitizer reports).  Its segment goes away now. */
  osp_publish_exit (NULL);
  if (argc > 1 && strcmp (argv[1], "cap") == 0)
    return scenario_cap ();
  if (argc > 1 && strcmp (argv[1], "abi_arg") == 0)
    return scenario_abi_arg ();

  osp_opts.mode = OSP_MODE_BLOCKS; /* this process has no OSP_OPTIONS */
  test_check ();
  test_packed ();
  test_register ();
  test_copies ();
  test_abandoned ();
  test_locks_block_signals ();

  char *dir = osp_test_tmpdir ();
  char err[4200];
  snprintf (err, sizeof err, "%s/err", dir);
  CHECK_EQ (osp_test_run ("cap", "max_functions=2:report=stderr", NULL, err),
            0);
  char *e = osp_test_slurp (err);
  CHECK_CONTAINS (e, " functions=2 ");
  CHECK_CONTAINS (e, "functions_dropped=2");
  CHECK_CONTAINS (e, "osp: 2 functions were not profiled: raise "
                     "max_functions (now 2)");
  free (e);
  CHECK_EQ (osp_test_run ("abi_arg", "report=none", NULL, err), 0);
  e = osp_test_slurp (err);
  char want[128];
  snprintf (want, sizeof want, "was built for osp ABI %u but this runtime "
            "is ABI %u; that module runs unprofiled\n", OSP_ABI_VERSION + 1,
            OSP_ABI_VERSION);
  CHECK_CONTAINS (e, want);
  CHECK (e && strchr (e, '\n') == e + strlen (e) - 1);
  free (e);
  unlink (err);
  rmdir (dir);
  free (dir);
  return osp_test_done ("t_registry");
}
