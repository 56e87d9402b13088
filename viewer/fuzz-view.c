/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-view.c - the fuzz target of the viewer's input handling: a view
 * (view_parse and everything the screens do with an accepted view), a
 * whole segment file (seg_attach_path, seg_read, then the view in it) or
 * a snapshot file's bytes (snap_parse, then the view in it).
 *
 * Why: views and segments come from other processes and from files; the
 * viewer must refuse anything malformed with a message and never read
 * outside what it was given.  Built by tests/viewer-fuzz.sh with
 * -fsanitize=address,undefined, either with clang's libFuzzer
 * (-fsanitize=fuzzer, which supplies main) or with the self-contained
 * mutator tests/progs/viewer-mutate.c (gcc only); not part of ospview.
 *
 * An input that starts with the segment magic is a segment: it is written
 * to a scratch file ($OSPVIEW_FUZZ_FILE, else /tmp/ospview-fuzz-<pid>) and
 * attached by path.  One that starts with the snapshot magic is checked
 * as a snapshot, as it is and with both checksums made right, then its
 * view as any view.  Anything else is a view, copied into a buffer of
 * exactly its size so that any read past the end is caught, and parsed
 * twice: as it is, and with every section's CRC recomputed, so that
 * mutations reach the checks behind the checksums.  The contract
 * checked besides "no crash": a refusal comes with a one-line message, an
 * acceptance yields screens whose every row is a string.
 *
 * Recent mode's tables (recent.c) of every accepted view, against itself
 * and since the start, are built too.
 *
 * Beyond parsing: every accepted view is also saved as a snapshot file
 * and goes through everything else that reads one - --json, --dot (of
 * its first function and of an unknown one), --annotate, --diff with
 * itself and with the previous accepted input, --merge likewise (as with
 * --allow-same-run, so that a merge with itself gets past the same-run
 * refusal to the code behind it) - each of
 * which must end with its documented exit status (their output goes to
 * /dev/null; sanitizer reports still reach the real stderr).  viewparse.c
 * validates once so that these can trust the view: this is where that
 * promise is tested.
 */
#define _GNU_SOURCE
#include "tui.h"

#include "crc32.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sanitizer/common_interface_defs.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* Views accepted and refused (the mutator's summary). */
unsigned long fuzz_view_accepted, fuzz_view_refused;

static void
check_message (const char *err)
{
  if (err[0] == '\0' || strchr (err, '\n') != NULL)
    {
      fprintf (stderr, "fuzz-view: refusal without a one-line message: "
               "'%s'\n", err);
      abort ();
    }
}

/* Every screen under a few option sets, and the status lines. */
static void
exercise (const struct view *v)
{
  static const char *const filters[] = { NULL, "demo", "()", "zzz" };
  struct scr_keyset toggled = { 0 };
  for (uint64_t i = 0; i < v->nforest && i < 8; i++)
    if (scr_keyset_toggle (&toggled, i * 0x9e3779b97f4a7c15ull) != 0)
      abort ();
  for (int s = 0; s < SCR_NSCREENS; s++)
    for (int k = 0; k < SORT_NKEYS; k++)
      {
        struct scr_opts o;
        memset (&o, 0, sizeof o);
        o.sort = (enum scr_sort) k;
        o.reverse = k & 1;
        o.filter = filters[k % 4];
        o.full_paths = k & 2;
        o.top = k == 3 ? 2 : 0;
        o.open_depth = k == 1 ? 1 : UINT32_MAX;
        o.toggled = &toggled;
        struct scr_table t;
        if (scr_build (&t, v, (enum scr_screen) s, &o) != 0)
          abort (); /* only out of memory may fail */
        size_t sum = 0;
        for (size_t i = 0; i < t.n; i++)
          sum += strlen (t.rows[i].text);
        if (t.title == NULL || t.header == NULL || t.n > t.total)
          abort ();
        (void) sum;
        scr_table_free (&t);
      }
  scr_keyset_free (&toggled);
  /* recent mode's tables (recent.c: the evidence of two views' subpaths),
     of the view against itself and since the start */
  for (int s = 0; s < SCR_NSCREENS; s++)
    for (int k = 0; k < 2; k++)
      {
        struct scr_opts o;
        memset (&o, 0, sizeof o);
        o.sort = SORT_RANK;
        struct scr_table t;
        if (recent_build (&t, k ? v : NULL, v, (enum scr_screen) s, &o,
                          "in the last")
            != 0)
          abort (); /* only out of memory may fail */
        for (size_t i = 0; i < t.n; i++)
          if (t.rows[i].text == NULL)
            abort ();
        scr_table_free (&t);
      }
  struct scr_live l = { .program = "prog", .pid = 1, .start_ns = 1,
                        .state = OSP_SHM_ONLINE, .alive = 1,
                        .heartbeat_ns = 2, .now_ns = 3, .publishes = 4 };
  struct scr_table t;
  if (scr_status (&t, v, &l) != 0)
    abort ();
  scr_table_free (&t);
}

/* ---- beyond parsing -------------------------------------------------- */

/* diff.c's terminal UI is never reached (stdout is not a terminal here):
   the fuzz target links no ncurses. */
int
tui_run_tables (const struct tui_provider *p, const struct ospview_opts *o)
{
  (void) p;
  (void) o;
  abort ();
}

/* Scratch files: the current input, the previous accepted one, a merge's
   output.  Next to OSPVIEW_FUZZ_FILE (tmpfs in the test), else in /tmp. */
static char scratch[3][300];
static int have_prev, quiet_fd = -1, real_out = -1, real_err = -1;

static void
scratch_init (void)
{
  if (scratch[0][0] != '\0')
    return;
  const char *p = getenv ("OSPVIEW_FUZZ_FILE");
  char base[256];
  if (p)
    snprintf (base, sizeof base, "%s", p);
  else
    snprintf (base, sizeof base, "/tmp/ospview-fuzz-%ld", (long) getpid ());
  static const char *const ext[3] = { ".a.ospsnap", ".b.ospsnap",
                                      ".out.ospsnap" };
  for (int k = 0; k < 3; k++)
    snprintf (scratch[k], sizeof scratch[k], "%s%s", base, ext[k]);
  /* The tools' output and messages go to /dev/null; the sanitizers keep
     reporting on the real stderr. */
  quiet_fd = open ("/dev/null", O_WRONLY);
  real_out = dup (STDOUT_FILENO);
  real_err = dup (STDERR_FILENO);
  if (real_err >= 0)
    __sanitizer_set_report_fd ((void *) (intptr_t) real_err);
}

static void
quiet (int on)
{
  fflush (stdout);
  fflush (stderr);
  if (quiet_fd < 0 || real_out < 0 || real_err < 0)
    return;
  dup2 (on ? quiet_fd : real_out, STDOUT_FILENO);
  dup2 (on ? quiet_fd : real_err, STDERR_FILENO);
}

static void
want_status (const char *what, int rc, int ok_mask)
{
  if (rc < 0 || rc > 7 || !(ok_mask >> rc & 1))
    {
      quiet (0);
      fprintf (stderr, "fuzz-view: %s: exit status %d\n", what, rc);
      abort ();
    }
}

static void
beyond (const struct view *v, const void *bytes, size_t len)
{
  static unsigned long round;
  scratch_init ();
  char err[512];
  const char *cur = scratch[0], *prev = scratch[1], *out = scratch[2];
  if (snap_save (cur, bytes, len, 0, err, sizeof err) != 0)
    return;
  char fn[256] = "main";
  if (v->nfns > 0)
    snprintf (fn, sizeof fn, "%s", view_str (v, view_fn (v, 0)->name));
  round++;
  quiet (1);
  struct source src;
  if (source_open_file (&src, cur, err, sizeof err) == 0)
    {
      want_status ("--json", export_main (&src, EXPORT_JSON, NULL), 1);
      want_status ("--dot", export_main (&src, EXPORT_DOT, fn), 3);
      want_status ("--dot zz", export_main (&src, EXPORT_DOT, "zz"), 3);
      want_status ("--annotate", export_main (&src, EXPORT_ANNOTATE, NULL),
                   3);
      want_status ("--pprof", export_rows_main (&src, EXPORT_PPROF,
                                                "-", ~0u), 3);
      want_status ("--folded", export_rows_main (&src, EXPORT_FOLDED,
                                                 "work", ~0u), 3);
      source_close (&src);
    }
  struct ospview_opts o;
  memset (&o, 0, sizeof o);
  o.count = 1;
  o.sort = (enum scr_sort) (round % SORT_NKEYS);
  o.reverse = (int) (round & 1);
  o.top = round % 3;
  o.filter = round % 4 == 1 ? "demo" : NULL;
  want_status ("--diff self", diff_main (cur, cur, &o, 0.0), 1 | 1 << 3);
  const char *two[2] = { cur, cur };
  const struct merge_opts mo = { .allow_same_run = 1,
                                 .max_rows = MERGE_ROWS_DEFAULT };
  want_status ("--merge self", merge_main (out, two, 2, &mo), 3);
  if (have_prev)
    {
      want_status ("--diff prev", diff_main (prev, cur, &o, 1.0),
                   1 | 1 << 3);
      two[0] = prev;
      want_status ("--merge prev", merge_main (out, two, 2, &mo), 3);
    }
  quiet (0);
  if (rename (cur, prev) == 0)
    have_prev = 1;
}

/* Recompute the checksum of every section that lies inside the view: a
   mutated view then gets past the CRC checks to the ones behind them
   (the table entries are copied in and out: nothing need be aligned). */
static void
fix_crcs (unsigned char *b, size_t size)
{
  struct osp_view_header h;
  if (size < sizeof h)
    return;
  memcpy (&h, b, sizeof h);
  if (h.header_size > size)
    return;
  uint64_t room = (size - h.header_size) / sizeof (struct osp_view_section);
  uint64_t n = h.nsections < room ? h.nsections : room;
  for (uint64_t i = 0; i < n; i++)
    {
      struct osp_view_section s;
      unsigned char *at = b + h.header_size + i * sizeof s;
      memcpy (&s, at, sizeof s);
      if (s.elem_size == 0 || s.offset > size
          || s.count > (size - s.offset) / s.elem_size)
        continue;
      s.crc32 = osp_crc32 (0, b + s.offset, (size_t) (s.count * s.elem_size));
      memcpy (at, &s, sizeof s);
    }
}

/* The view as given, then with its checksums made right. */
static void
one_view (const uint8_t *data, size_t size)
{
  for (int fixed = 0; fixed < 2; fixed++)
    {
      unsigned char *buf = malloc (size ? size : 1);
      if (buf == NULL)
        return;
      memcpy (buf, data, size);
      if (fixed)
        fix_crcs (buf, size);
      struct view v;
      char err[512] = "";
      if (view_parse (&v, buf, size, err, sizeof err) == 0)
        {
          fuzz_view_accepted++;
          exercise (&v);
          beyond (&v, buf, size);
        }
      else
        {
          fuzz_view_refused++;
          check_message (err);
        }
      free (buf);
    }
}

static void
one_segment (const uint8_t *data, size_t size)
{
  static char path[256];
  if (path[0] == '\0')
    {
      const char *p = getenv ("OSPVIEW_FUZZ_FILE");
      if (p)
        snprintf (path, sizeof path, "%s", p);
      else
        snprintf (path, sizeof path, "/tmp/ospview-fuzz-%ld",
                  (long) getpid ());
    }
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0)
    return;
  size_t done = 0;
  while (done < size)
    {
      ssize_t k = write (fd, data + done, size - done);
      if (k <= 0)
        break;
      done += (size_t) k;
    }
  close (fd);
  struct seg s;
  char err[512] = "";
  if (seg_attach_path (&s, path, err, sizeof err) != 0)
    {
      check_message (err);
      return;
    }
  void *buf = NULL;
  size_t cap = 0;
  long len = seg_read (&s, &buf, &cap, err, sizeof err);
  if (len < 0)
    check_message (err);
  else if (len > 0)
    one_view (buf, (size_t) len); /* a copy of exactly len bytes */
  free (buf);
  seg_detach (&s);
}

/* A snapshot file's bytes, as given and with its checksums made right
   (the view's section CRCs too, so mutations reach the view's checks). */
static void
one_snapshot (const uint8_t *data, size_t size)
{
  for (int fixed = 0; fixed < 2; fixed++)
    {
      char *file = aligned_alloc (16, (size + 15) & ~(size_t) 15);
      if (file == NULL)
        return;
      memcpy (file, data, size);
      struct osp_snap_header h;
      if (fixed && size >= sizeof h)
        {
          memcpy (&h, file, sizeof h);
          if (h.view_offset <= size && h.view_offset % 8 == 0)
            {
              size_t vlen = size - (size_t) h.view_offset;
              fix_crcs ((unsigned char *) file + h.view_offset, vlen);
              h.view_size = vlen;
              h.view_crc32 = osp_crc32 (0, file + h.view_offset, vlen);
            }
          h.header_crc32 = 0;
          memcpy (file, &h, sizeof h);
          if (h.header_size >= sizeof h && h.header_size <= size)
            h.header_crc32 = osp_crc32 (0, file, h.header_size);
          memcpy (file, &h, sizeof h);
        }
      struct snapshot s;
      char err[512] = "";
      if (snap_parse (&s, file, size, err, sizeof err) == 0)
        {
          fuzz_view_accepted++;
          exercise (&s.view);
          beyond (&s.view, s.view_bytes, s.len);
          snap_free (&s); /* frees FILE */
        }
      else
        {
          fuzz_view_refused++;
          check_message (err);
          free (file);
        }
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size >= 8 && memcmp (data, OSP_SHM_MAGIC, 8) == 0)
    one_segment (data, size);
  else if (size >= 8 && memcmp (data, OSP_SNAP_MAGIC, 8) == 0)
    one_snapshot (data, size);
  else
    one_view (data, size);
  return 0;
}
