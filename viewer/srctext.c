/* SPDX-License-Identifier: GPL-3.0-or-later */
/* srctext.c - a source file's text, shown only when it is the file that
 * was compiled.
 *
 * Why: a view names its source files, and a view may come from anyone (a
 * snapshot is a file; a segment is written by the profiled process).  If
 * ospview printed whatever path a view names, `ospview --annotate' run as
 * root on a crafted snapshot would print /etc/shadow.  So the plugin
 * records the size and SHA-256 of each source file as it compiled it
 * (include/osp/abi.h), the view carries them (FNSRC, include/osp/view.h),
 * and every place that shows source text gets it from here: the file is
 * read once into memory, at most SRC_TEXT_MAX bytes and only when it is a
 * regular file of the recorded size (nothing else is even opened), and
 * its bytes are handed out only when exactly those bytes hash to the
 * recorded digest.
 *
 * Where (src_find): a relative name is relative to the directory it was
 * compiled in, which the plugin records (comp_dir, as DWARF's
 * DW_AT_comp_dir), so ospview finds the text from any directory.  A tree
 * that moved is found with --source-map OLD=NEW (the recorded OLD prefix
 * of the name read as NEW) or --source-dir DIR (DIR/NAME, DIR/BASE); each
 * candidate is tried in that order, then the recorded place, then the
 * name from the current directory, and the first whose bytes match wins.
 * When none does, one line says why: "changed since it was compiled" (a
 * regular file is at one of the candidates, with other bytes), "not found
 * in DIRS", or "no checksum recorded" (an older view, a file the plugin
 * could not read).  Beyond whether a regular file exists at a name the
 * view gives, which any user who can search its directory can learn, the
 * answer tells nothing of a file that is not the source: not its size,
 * nor a byte of it.
 */
#define _GNU_SOURCE
#include "ospview.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sha256.h"

int
src_want (const struct view *v, const uint32_t *fns, size_t n,
          struct osp_vfnsrc *out)
{
  memset (out, 0, sizeof *out);
  if (n == 0)
    return 0;
  for (size_t i = 0; i < n; i++)
    {
      const struct osp_vfnsrc *s = view_fnsrc (v, fns[i]);
      if (s == NULL || !(s->flags & OSP_VSRC_DIGEST))
        return 0;
      if (i == 0)
        *out = *s;
      else if (s->size != out->size
               || memcmp (s->sha256, out->sha256, sizeof s->sha256) != 0)
        return 0; /* two contents under one name: neither is shown */
    }
  return 1;
}

/* src_text_load, and in *EXISTS whether PATH is a regular file. */
static char *
text_load (const char *path, const struct osp_vfnsrc *want, size_t *len,
           int *exists)
{
  *len = 0;
  *exists = 0;
  if (want == NULL || !(want->flags & OSP_VSRC_DIGEST)
      || want->size > SRC_TEXT_MAX || path == NULL || *path == '\0')
    return NULL;
  /* Only a regular file is opened: opening a device has effects of its
     own (a watchdog, a tape's rewind), whatever is read after.  The
     fstat after the open checks it is still that file. */
  struct stat before, sb;
  if (stat (path, &before) != 0 || !S_ISREG (before.st_mode))
    return NULL;
  *exists = 1;
  if ((uint64_t) before.st_size != want->size)
    return NULL;
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0)
    return NULL;
  if (fstat (fd, &sb) != 0 || !S_ISREG (sb.st_mode)
      || sb.st_dev != before.st_dev || sb.st_ino != before.st_ino
      || (uint64_t) sb.st_size != want->size)
    {
      close (fd);
      return NULL;
    }
  size_t size = (size_t) want->size, got = 0;
  /* one byte more than expected: a file that grew since fstat is seen */
  char *buf = malloc (size + 1);
  while (buf != NULL && got <= size)
    {
      ssize_t k = read (fd, buf + got, size + 1 - got);
      if (k <= 0)
        break;
      got += (size_t) k;
    }
  close (fd);
  unsigned char sum[OSP_SHA256_BYTES];
  if (buf != NULL && got == size)
    osp_sha256 (buf, size, sum);
  if (buf == NULL || got != size
      || memcmp (sum, want->sha256, sizeof sum) != 0)
    {
      free (buf);
      return NULL;
    }
  buf[size] = '\0';
  *len = size;
  return buf;
}

char *
src_text_load (const char *path, const struct osp_vfnsrc *want, size_t *len)
{
  int exists;
  return text_load (path, want, len, &exists);
}

/* ---- where the text is --------------------------------------------------- */

struct src_map
{
  const char *from, *to;
};

static const char **src_dirs;
static size_t nsrc_dirs;
static struct src_map *src_maps;
static size_t nsrc_maps;

int
src_add_dir (const char *dir)
{
  const char **d = realloc (src_dirs, (nsrc_dirs + 1) * sizeof *d);
  if (d == NULL)
    return -1;
  src_dirs = d;
  src_dirs[nsrc_dirs++] = dir;
  return 0;
}

int
src_add_map (const char *arg)
{
  const char *eq = strchr (arg, '=');
  if (eq == NULL || eq == arg || eq[1] == '\0')
    return -1;
  struct src_map *m = realloc (src_maps, (nsrc_maps + 1) * sizeof *m);
  if (m == NULL)
    return -1;
  src_maps = m;
  char *from = strndup (arg, (size_t) (eq - arg));
  if (from == NULL)
    return -1;
  /* "/a/b/=/c" and "/a/b=/c" mean the same prefix */
  for (size_t n = strlen (from); n > 1 && from[n - 1] == '/'; n--)
    from[n - 1] = '\0';
  src_maps[nsrc_maps++] = (struct src_map) { from, eq + 1 };
  return 0;
}

/* A candidate name tried in turn. */
struct try
{
  const struct osp_vfnsrc *want;
  char *text;
  size_t len;
  int changed;    /* a regular file with other bytes was seen */
  char path[4096];
};

static int
try_path (struct try *t, const char *a, const char *b, const char *c)
{
  if (t->text != NULL)
    return 1;
  int n = snprintf (t->path, sizeof t->path, "%s%s%s", a, b, c);
  if (n < 0 || (size_t) n >= sizeof t->path)
    return 0;
  int exists;
  t->text = text_load (t->path, t->want, &t->len, &exists);
  if (t->text == NULL && exists)
    t->changed = 1;
  return t->text != NULL;
}

/* Whether NAME starts with the directory PREFIX (at a '/'): its rest. */
static const char *
under (const char *name, const char *prefix)
{
  size_t n = strlen (prefix);
  if (strncmp (name, prefix, n) != 0)
    return NULL;
  if (name[n] == '/')
    return name + n;
  return n > 0 && prefix[n - 1] == '/' ? name + n - 1 : NULL;
}

char *
src_find (const char *file, const char *comp_dir,
          const struct osp_vfnsrc *want, size_t *len, char *why,
          size_t whylen)
{
  *len = 0;
  why[0] = '\0';
  if (file == NULL || *file == '\0')
    {
      snprintf (why, whylen, "no file name");
      return NULL;
    }
  if (want == NULL || !(want->flags & OSP_VSRC_DIGEST))
    {
      snprintf (why, whylen, "%s: no checksum recorded (an older build or "
                "view)", file);
      return NULL;
    }
  if (comp_dir == NULL)
    comp_dir = "";
  struct try t = { .want = want };
  /* Where it was compiled: the name as recorded, or in its directory. */
  char orig[4096];
  int rel = file[0] != '/';
  int n = rel && *comp_dir ? snprintf (orig, sizeof orig, "%s/%s", comp_dir,
                                       file)
                           : snprintf (orig, sizeof orig, "%s", file);
  if (n < 0 || (size_t) n >= sizeof orig)
    orig[0] = '\0';
  const char *base = strrchr (file, '/') ? strrchr (file, '/') + 1 : file;
  for (size_t i = 0; i < nsrc_maps && *orig; i++)
    {
      const char *rest = under (orig, src_maps[i].from);
      if (rest != NULL && try_path (&t, src_maps[i].to, rest, ""))
        break;
    }
  for (size_t i = 0; i < nsrc_dirs && t.text == NULL; i++)
    if ((rel && try_path (&t, src_dirs[i], "/", file))
        || try_path (&t, src_dirs[i], "/", base))
      break;
  if (t.text == NULL && *orig)
    try_path (&t, orig, "", "");
  if (t.text == NULL && rel)
    try_path (&t, file, "", "");
  if (t.text != NULL)
    {
      *len = t.len;
      return t.text;
    }
  if (t.changed)
    {
      snprintf (why, whylen, "%s: changed since it was compiled", file);
      return NULL;
    }
  /* not found: where it was looked for */
  size_t at = 0;
  int k = snprintf (why, whylen, "%s: not found in ", file);
  at = k > 0 ? (size_t) k : 0;
  const char *dir = rel ? (*comp_dir ? comp_dir : ".") : NULL;
  char odir[4096];
  if (!rel)
    {
      snprintf (odir, sizeof odir, "%.*s", (int) (base - file - 1 > 0
                                                  ? base - file - 1 : 1),
                file);
      dir = odir;
    }
  k = snprintf (why + at, at < whylen ? whylen - at : 0, "%s", dir);
  at += k > 0 ? (size_t) k : 0;
  for (size_t i = 0; i < nsrc_dirs && at < whylen; i++)
    {
      k = snprintf (why + at, whylen - at, ", %s", src_dirs[i]);
      at += k > 0 ? (size_t) k : 0;
    }
  if (at < whylen && nsrc_dirs == 0 && nsrc_maps == 0)
    snprintf (why + at, whylen - at, " (try --source-dir or --source-map)");
  return NULL;
}

const char *
src_comp_dir (const struct view *v, uint32_t fi)
{
  const struct osp_vfnsrc *s = view_fnsrc (v, fi);
  return s != NULL ? view_str (v, s->comp_dir) : "";
}

/* ---- which lines ---------------------------------------------------------- */

static int
u32_cmp (const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
  return x < y ? -1 : x > y;
}

size_t
src_lines_of (const struct view *v, const uint32_t *blocks, size_t n,
              uint32_t *out, size_t max, int *more)
{
  *more = 0;
  uint32_t *all = NULL;
  size_t nall = 0, cap = 0;
  for (size_t i = 0; i < n; i++)
    {
      const struct osp_vblock *b = view_block (v, blocks[i]);
      if (b == NULL || b->first_line == 0)
        continue;
      uint32_t k;
      const uint32_t *at = view_block_lines (v, blocks[i], &k);
      /* a range: its first MAX + 1 lines are all that can be shown */
      uint64_t last = b->last_line > b->first_line ? b->last_line
                                                   : b->first_line;
      if (at == NULL)
        k = (uint32_t) (last - b->first_line + 1 < max + 1
                            ? last - b->first_line + 1
                            : max + 1);
      else if (k > max + 1)
        k = (uint32_t) max + 1;
      if (ospview_grow (&all, &cap, nall + k, sizeof *all, 64) != 0)
        break;
      for (uint32_t j = 0; j < k; j++)
        all[nall++] = at != NULL ? at[j] : b->first_line + j;
    }
  qsort (all, nall, sizeof *all, u32_cmp);
  size_t m = 0;
  for (size_t i = 0; i < nall; i++)
    if (m == 0 || all[i] != all[m - 1])
      all[m++] = all[i];
  if (m > max)
    *more = 1, m = max;
  if (m > 0)
    memcpy (out, all, m * sizeof *out);
  free (all);
  return m;
}

/* ---- a row's source, as text ---------------------------------------------- */

#define PRINT_STEPS 8   /* steps of a row printed at most */
#define PRINT_LINES 12  /* statement lines per step at most */

/* Line L (1-based) of the text [*AT, END), *AT being the start of line
   *K <= L: its start and *N bytes, or NULL; *AT and *K move on to it (the
   lines asked for ascend, so one pass over the file serves them all). */
static const char *
text_line (const char **at, uint32_t *k, const char *end, uint32_t l,
           size_t *n)
{
  const char *p = *at;
  for (; *k < l && p < end; ++*k)
    {
      const char *nl = memchr (p, '\n', (size_t) (end - p));
      if (nl == NULL)
        return NULL;
      p = nl + 1;
    }
  *at = p;
  if (p >= end || *k != l)
    return NULL;
  const char *nl = memchr (p, '\n', (size_t) (end - p));
  *n = (size_t) ((nl ? nl : end) - p);
  return p;
}

/* One step: function FI's blocks BLOCKS[0, N). */
static void
print_step (FILE *o, const struct view *v, uint32_t fi,
            const uint32_t *blocks, size_t n)
{
  const struct osp_vfn *f = view_fn (v, fi);
  const char *file = view_str (v, f->file);
  fputs ("  ", o);
  ospview_puts (o, view_str (v, f->name));
  fputs ("() ", o);
  ospview_puts (o, *file ? file : "(no file name)");
  fputc ('\n', o);
  uint32_t lines[PRINT_LINES];
  int more;
  size_t nl = src_lines_of (v, blocks, n, lines, PRINT_LINES, &more);
  if (nl == 0)
    {
      fputs ("        (no line)\n", o);
      return;
    }
  struct osp_vfnsrc want;
  src_want (v, &fi, 1, &want);
  char why[1024];
  size_t len;
  char *text = src_find (file, src_comp_dir (v, fi), &want, &len, why,
                         sizeof why);
  if (text == NULL)
    {
      fputs ("        (source not shown: ", o);
      ospview_puts (o, why);
      fputs (")\n", o);
      return;
    }
  const char *at = text;
  uint32_t at_line = 1;
  for (size_t i = 0; i < nl; i++)
    {
      size_t k;
      const char *p = text_line (&at, &at_line, text + len, lines[i], &k);
      fprintf (o, "%8u  ", lines[i]);
      if (p == NULL)
        {
          fputs ("(past the end of the file)\n", o);
          break;
        }
      /* the user's own line, tabs as spaces, through the sanitiser */
      char buf[1024];
      size_t w = 0;
      for (size_t j = 0; j < k && w + 1 < sizeof buf; j++)
        buf[w++] = p[j] == '\t' ? ' ' : p[j];
      buf[w] = '\0';
      ospview_puts (o, buf);
      fputc ('\n', o);
    }
  if (more)
    fputs ("        ...\n", o);
  free (text);
}

void
src_print_blocks (FILE *o, const struct view *v, uint64_t ids, uint32_t len)
{
  unsigned steps = 0;
  for (uint32_t i = 0; i < len && steps < PRINT_STEPS;)
    {
      uint32_t fi = view_block (v, v->ids[ids + i])->fn, j = i + 1;
      while (j < len && view_block (v, v->ids[ids + j])->fn == fi)
        j++;
      print_step (o, v, fi, v->ids + ids + i, j - i);
      steps++;
      i = j;
    }
  if (steps == PRINT_STEPS)
    fputs ("  ...\n", o);
}
