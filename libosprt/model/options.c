/* SPDX-License-Identifier: MIT */
/* options.c - OSP_OPTIONS="key=value:key=value" (doc/CONTRACTS.md).
 *
 * A profiler must never stop the program it profiles, so a bad option is
 * not an error: it gets one line on stderr naming it and listing what is
 * accepted, keeps its default, and the program runs on.  The keys are data:
 * one table of descriptors (name, kind, field, bounds, default, accepted
 * names), and one parser, one "accepted" text and one default per kind,
 * so that the lines printed, the defaults and doc/osp.md's table (checked
 * against osp_options_table by t_options) cannot drift from what is
 * really accepted.
 *
 * In a privileged process (AT_SECURE) OSP_OPTIONS is not read at all
 * (osp_options_from_env): it is the caller's environment, and would let
 * any user choose which files a setuid program writes.
 *
 * Items are separated by ':', so a report path cannot contain ':'.
 * An empty item (a stray or trailing ':') is ignored; a repeated key wins.
 */
#define _GNU_SOURCE
#include "model/model.h"

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

/* Strict unsigned decimal in [LO, HI]: no sign, no spaces, no suffix. */
static int
parse_dec (const char *value, uint64_t lo, uint64_t hi, uint64_t *out)
{
  if (*value < '0' || *value > '9')
    return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull (value, &end, 10);
  if (errno != 0 || *end != '\0' || v < lo || v > hi)
    return -1;
  *out = v;
  return 0;
}

/* Strict unsigned decimal, or 0x-hex, in [0, UINT64_MAX]. */
static int
parse_u64 (const char *value, uint64_t *out)
{
  int base = 10;
  if (value[0] == '0' && (value[1] == 'x' || value[1] == 'X'))
    {
      base = 16;
      value += 2;
      if (!((*value >= '0' && *value <= '9')
            || (*value >= 'a' && *value <= 'f')
            || (*value >= 'A' && *value <= 'F')))
        return -1;
    }
  else if (*value < '0' || *value > '9')
    return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull (value, &end, base);
  if (errno != 0 || *end != '\0')
    return -1;
  *out = v;
  return 0;
}

/* A byte count: decimal with an optional k/K, m/M or g/G suffix (powers of
   1024), in [LO, HI]. */
static int
parse_bytes (const char *value, uint64_t lo, uint64_t hi, uint64_t *out)
{
  if (*value < '0' || *value > '9')
    return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull (value, &end, 10);
  if (errno != 0)
    return -1;
  unsigned shift = 0;
  if (*end == 'k' || *end == 'K')
    shift = 10;
  else if (*end == 'm' || *end == 'M')
    shift = 20;
  else if (*end == 'g' || *end == 'G')
    shift = 30;
  if (shift)
    end++;
  if (*end != '\0' || v > (hi >> shift))
    return -1;
  v <<= shift;
  if (v < lo)
    return -1;
  *out = v;
  return 0;
}

/* An octal number of at most four digits in [0, HI] with no bits outside
   HI (a file mode: 600, 0640, 0644). */
static int
parse_octal (const char *value, uint64_t hi, uint64_t *out)
{
  if (*value < '0' || *value > '7' || strlen (value) > 4)
    return -1;
  errno = 0;
  char *end;
  unsigned long v = strtoul (value, &end, 8);
  if (errno != 0 || *end != '\0' || (v & ~hi) != 0)
    return -1;
  *out = v;
  return 0;
}

/* Only %p, %h, %e and %% are known: an unknown escape is almost certainly
   a typo, and silently writing a file named "prof.%d" would hide it. */
static int
path_template_ok (const char *p)
{
  for (; *p; p++)
    if (*p == '%')
      {
        p++;
        if (*p != 'p' && *p != 'h' && *p != 'e' && *p != '%')
          return 0;
      }
  return 1;
}

/* A file template (%p %h %e %%) into OUT (OSP_PATH_MAX bytes), anchored at
   the start-up directory when relative (a chdir() by the program must not
   move the file; '%' in that directory must not read as an escape). */
static int
anchor_template (char *out, const char *value)
{
  if (*value == '\0' || !path_template_ok (value))
    return -1;
  char buf[OSP_PATH_MAX];
  size_t n = 0;
  if (value[0] != '/')
    {
      char cwd[OSP_PATH_MAX];
      if (getcwd (cwd, sizeof cwd) == NULL)
        return -1;
      for (const char *c = cwd; *c && n + 3 < sizeof buf; c++)
        {
          if (*c == '%')
            buf[n++] = '%';
          buf[n++] = *c;
        }
      if (n == 0 || buf[n - 1] != '/')
        buf[n++] = '/';
    }
  size_t len = strlen (value);
  if (n + len + 1 > sizeof buf)
    return -1;
  memcpy (buf + n, value, len + 1);
  memcpy (out, buf, n + len + 1);
  return 0;
}

/* ---- the keys as data ------------------------------------------------ */

/* A named value of a key ("subpaths" is OSP_MODE_SUBPATHS). */
struct osp_choice
{
  const char *name;
  int value;
};

static const struct osp_choice mode_choices[]
    = { { "subpaths", OSP_MODE_SUBPATHS },
        { "subpaths-exact", OSP_MODE_SUBPATHS_EXACT },
        { "blocks", OSP_MODE_BLOCKS },
        { "off", OSP_MODE_OFF },
        { NULL, 0 } };
static const struct osp_choice report_choices[]
    = { { "line", OSP_REPORT_LINE },
        { "stderr", OSP_REPORT_STDERR },
        { "stdout", OSP_REPORT_STDOUT },
        { "none", OSP_REPORT_NONE },
        { NULL, 0 } };
static const struct osp_choice format_choices[]
    = { { "text", OSP_FORMAT_TEXT }, { "tsv", OSP_FORMAT_TSV }, { NULL, 0 } };
static const struct osp_choice bias_choices[]
    = { { "geometric", OSP_BIAS_GEOMETRIC },
        { "uniform", OSP_BIAS_UNIFORM },
        { "long", OSP_BIAS_LONG },
        { NULL, 0 } };
static const struct osp_choice policy_choices[]
    = { { "concise", HL_CONCISE },
        { "spacesaving", HL_SPACE_SAVING },
        { "counting", HL_COUNTING },
        { NULL, 0 } };
static const struct osp_choice encoding_choices[]
    = { { "sequence", HL_ENC_SEQUENCE },
        { "xor", HL_ENC_XOR },
        { "rotation", HL_ENC_ROTATION },
        { NULL, 0 } };
static const struct osp_choice paths_choices[]
    = { { "counter", OSP_PATHS_COUNTER },
        { "timer", OSP_PATHS_TIMER },
        { "exhaustive", OSP_PATHS_EXHAUSTIVE },
        { "off", OSP_PATHS_OFF },
        { NULL, 0 } };
static const struct osp_choice forest_choices[]
    = { { "burst", OSP_FOREST_BURST },
        { "exhaustive", OSP_FOREST_EXHAUSTIVE },
        { "off", OSP_FOREST_OFF },
        { NULL, 0 } };
static const struct osp_choice onoff_choices[]
    = { { "on", 1 }, { "off", 0 }, { NULL, 0 } };
static const struct osp_choice none_choices[] = { { "none", 0 }, { NULL, 0 } };
/* Signals a program rarely uses for itself; "SIG" prefix optional. */
static const struct osp_choice signal_choices[]
    = { { "none", 0 },        { "USR1", SIGUSR1 }, { "USR2", SIGUSR2 },
        { "HUP", SIGHUP },    { "WINCH", SIGWINCH }, { "URG", SIGURG },
        { "PWR", SIGPWR },    { NULL, 0 } };

/* How a key's value is read; each kind has one parser, one line of
   "accepted" text and one way to print its default (key_value_text). */
enum osp_kind
{
  K_CHOICE, /* a name of CHOICES */
  K_FLAG,   /* 0 or 1 */
  K_U32,    /* an integer LO..HI */
  K_POW2,   /* a power of two LO..HI */
  K_BYTES,  /* a size LO..HI with an optional k/m/g suffix */
  K_U64,    /* any 64-bit number, decimal or 0x hex */
  K_SIGNAL, /* a name of CHOICES, the "SIG" prefix optional */
  K_FILE,   /* a name of CHOICES, or a file template (%p %h %e %%) */
  K_OCTAL,  /* an octal file mode within HI's bits */
};

/* No second field (SET, PATH). */
#define NOFIELD SIZE_MAX

struct osp_key
{
  const char *name;
  enum osp_kind kind;
  size_t field, size; /* where the value goes in struct osp_options */
  uint64_t lo, hi, def;
  const struct osp_choice *choices;
  size_t set;  /* an int set to 1 when the key is given, or NOFIELD */
  size_t path; /* K_FILE: the template buffer (OSP_PATH_MAX), else NOFIELD */
  int file_value; /* K_FILE: FIELD's value for a file (if FIELD is one) */
  /* Around the generated "accepted" text: "milliseconds, " before,
     " (0: no limit)" or ", at least min_length" after. */
  const char *before, *after;
  /* K_FILE without FIELD: the default template (NULL: none), applied at
     start-up by osp_options_from_env, not by osp_options_defaults (which
     reads no working directory). */
  const char *def_template;
};

#define F(f)                                                                  \
  offsetof (struct osp_options, f), sizeof ((struct osp_options *) 0)->f
#define KB ((uint64_t) 1 << 10)
#define MB ((uint64_t) 1 << 20)
#define GB ((uint64_t) 1 << 30)

#define CHOICE(n, f, c, d)                                                    \
  { n, K_CHOICE, F (f), 0, 0, d, c, NOFIELD, NOFIELD, 0, "", "", NULL }
#define FLAG(n, f, d)                                                         \
  { n, K_FLAG, F (f), 0, 1, d, NULL, NOFIELD, NOFIELD, 0, "", "", NULL }
#define U32(n, f, lo, hi, d, pre, post)                                       \
  { n, K_U32, F (f), lo, hi, d, NULL, NOFIELD, NOFIELD, 0, pre, post, NULL }
#define POW2(n, f, d, post)                                                   \
  { n, K_POW2, F (f), 2, 65536, d, NULL, NOFIELD, NOFIELD, 0, "", post, NULL }
#define BYTES(n, f, lo, hi, d)                                                \
  { n, K_BYTES, F (f), lo, hi, d, NULL, NOFIELD, NOFIELD, 0, "", "", NULL }
#define SIGNAL(n, f, post)                                                    \
  { n, K_SIGNAL, F (f), 0, 0, 0, signal_choices, NOFIELD, NOFIELD, 0, "",  \
    post, NULL }

/* Every key, in the order the messages list them.  The doc's table of
   keys (doc/osp.md) is checked against this one by t_options. */
static const struct osp_key keys[] = {
  CHOICE ("mode", mode, mode_choices, OSP_MODE_SUBPATHS),
  { "report", K_FILE, F (report), 0, 0, OSP_REPORT_LINE, report_choices,
    NOFIELD, offsetof (struct osp_options, report_path), OSP_REPORT_FILE, "",
    "", NULL },
  CHOICE ("report_format", report_format, format_choices, OSP_FORMAT_TEXT),
  U32 ("report_top", report_top, 1, OSP_REPORT_TOP_MAX, 20, "", ""),
  U32 ("max_functions", max_functions, 1, 16777216, 65536, "", ""),
  FLAG ("verbose", verbose, 0),
  U32 ("interval", interval, 1, 1000000000, 2000, "", ""),
  U32 ("gain", gain, 0, 1000000000, 300, "", " (0: no limit)"),
  POW2 ("min_length", min_length, 2, ", at most max_length"),
  POW2 ("max_length", max_length, 1024, ", at least min_length"),
  CHOICE ("length_bias", length_bias, bias_choices, OSP_BIAS_GEOMETRIC),
  BYTES ("hotlist_bytes", hotlist_bytes, HL_MIN_BYTES, 4 * GB, 64 * KB),
  CHOICE ("policy", policy, policy_choices, HL_SPACE_SAVING),
  CHOICE ("encoding", encoding, encoding_choices, HL_ENC_SEQUENCE),
  { "seed", K_U64, F (seed), 0, UINT64_MAX, 0, NULL,
    offsetof (struct osp_options, seed_set), NOFIELD, 0, "", "", NULL },
  POW2 ("exact_max", exact_max, 32, ", at least min_length"),
  BYTES ("exact_bytes", exact_bytes, 64 * KB, 16 * GB, 256 * MB),
  SIGNAL ("report_signal", report_signal, ""),
  CHOICE ("paths", paths, paths_choices, OSP_PATHS_COUNTER),
  U32 ("path_interval", path_interval, 1, 1000000000, 1000, "", ""),
  U32 ("path_gain", path_gain, 0, 1000000000, 300, "", " (0: no limit)"),
  U32 ("path_samples", path_samples, 1, 1000000, 64, "", ""),
  U32 ("path_stride", path_stride, 1, 1000000, 17, "", ""),
  U32 ("path_period", path_period, 1, 60000, 10, "milliseconds, ", ""),
  BYTES ("path_bytes", path_bytes, 64 * KB, 4 * GB, 4 * MB),
  FLAG ("verify_paths", verify_paths, 0),
  { "forest", K_CHOICE, F (forest), 0, 0, OSP_FOREST_BURST, forest_choices,
    offsetof (struct osp_options, forest_set), NOFIELD, 0, "", "", NULL },
  U32 ("forest_k", forest_k, 1, 64, 8, "", ""),
  U32 ("forest_burst", forest_burst, 16, 1048576, 256, "", ""),
  U32 ("forest_interval", forest_interval, 1, 1000000000, 262144, "", ""),
  BYTES ("forest_bytes", forest_bytes, 64 * KB, 4 * GB, 2 * MB),
  U32 ("forest_threads", forest_threads, 1, 4096, 64, "", ""),
  U32 ("forest_prune", forest_prune, 0, 100, 10, "a percentage, ", ""),
  CHOICE ("publish", publish, onoff_choices, 1),
  U32 ("publish_ms", publish_ms, 50, 60000, 500, "milliseconds, ", ""),
  BYTES ("publish_bytes", publish_bytes, 64 * KB, 1 * GB, 4 * MB),
  { "snapshot", K_FILE, NOFIELD, 0, 0, 0, 0, none_choices,
    offsetof (struct osp_options, snapshot_set),
    offsetof (struct osp_options, snapshot_path), 0, "", "",
    OSP_SNAPSHOT_DEFAULT },
  SIGNAL ("snapshot_signal", snapshot_signal, ", not report_signal's"),
  BYTES ("snapshot_bytes", snapshot_bytes, 64 * KB, 4 * GB, 256 * MB),
  { "file_mode", K_OCTAL, F (file_mode), 0, 0666, 0600, NULL, NOFIELD,
    NOFIELD, 0, "", "", NULL },
};
#define NKEYS (sizeof keys / sizeof keys[0])

static void
store (struct osp_options *o, size_t field, size_t size, uint64_t v)
{
  char *at = (char *) o + field;
  if (size == sizeof (uint64_t))
    memcpy (at, &v, sizeof v);
  else
    {
      uint32_t w = (uint32_t) v; /* int, enum and uint32_t fields */
      memcpy (at, &w, sizeof w);
    }
}

static const struct osp_choice *
choice_named (const struct osp_choice *c, const char *name)
{
  for (; c->name != NULL; c++)
    if (strcmp (c->name, name) == 0)
      return c;
  return NULL;
}

static const char *
choice_name (const struct osp_choice *c, int value)
{
  for (; c->name != NULL; c++)
    if (c->value == value)
      return c->name;
  return NULL;
}

/* Parse VALUE for key K into O: 0, or -1 (O unchanged). */
static int
key_parse (const struct osp_key *k, struct osp_options *o, const char *value)
{
  uint64_t v = 0;
  const struct osp_choice *c;
  switch (k->kind)
    {
    case K_CHOICE:
      if ((c = choice_named (k->choices, value)) == NULL)
        return -1;
      v = (uint64_t) (unsigned) c->value;
      break;
    case K_FLAG:
    case K_U32:
      if (parse_dec (value, k->lo, k->hi, &v) != 0)
        return -1;
      break;
    case K_POW2:
      if (parse_dec (value, k->lo, k->hi, &v) != 0 || (v & (v - 1)) != 0)
        return -1;
      break;
    case K_BYTES:
      if (parse_bytes (value, k->lo, k->hi, &v) != 0)
        return -1;
      break;
    case K_U64:
      if (parse_u64 (value, &v) != 0)
        return -1;
      break;
    case K_SIGNAL:
      {
        int prefixed = strncmp (value, "SIG", 3) == 0; /* not for "none" */
        c = choice_named (k->choices, prefixed ? value + 3 : value);
        if (c == NULL || (prefixed && c->value == 0))
          return -1;
        v = (uint64_t) (unsigned) c->value;
        break;
      }
    case K_FILE:
      {
        char *path = (char *) o + k->path;
        if ((c = choice_named (k->choices, value)) != NULL)
          {
            v = (uint64_t) (unsigned) c->value;
            if (k->field == NOFIELD)
              path[0] = '\0'; /* "none" is the empty template */
          }
        else if (anchor_template (path, value) != 0)
          return -1;
        else
          v = (uint64_t) (unsigned) k->file_value;
        break;
      }
    case K_OCTAL:
      if (parse_octal (value, k->hi, &v) != 0)
        return -1;
      break;
    }
  if (k->field != NOFIELD)
    store (o, k->field, k->size, v);
  if (k->set != NOFIELD)
    store (o, k->set, sizeof (int), 1);
  return 0;
}

/* The values key K accepts, as the messages say them. */
static void
key_accepted (FILE *out, const struct osp_key *k)
{
  fputs (k->before, out);
  switch (k->kind)
    {
    case K_CHOICE:
    case K_SIGNAL:
    case K_FILE:
      for (const struct osp_choice *c = k->choices; c->name; c++)
        fprintf (out, "%s%s", c == k->choices ? "" : ", ", c->name);
      if (k->kind == K_SIGNAL)
        fputs (" (SIG prefix optional)", out);
      if (k->kind == K_FILE)
        fputs (", or a file path with %p %h %e %%", out);
      break;
    case K_FLAG:
      fputs ("0, 1", out);
      break;
    case K_U32:
      fprintf (out, "an integer %llu..%llu", (unsigned long long) k->lo,
               (unsigned long long) k->hi);
      break;
    case K_POW2:
      fprintf (out, "a power of two %llu..%llu", (unsigned long long) k->lo,
               (unsigned long long) k->hi);
      break;
    case K_BYTES:
      {
        char lo[32], hi[32];
        fprintf (out, "a size %s..%s, suffix k/K, m/M or g/G allowed",
                 osp_options_size_text (lo, sizeof lo, k->lo),
                 osp_options_size_text (hi, sizeof hi, k->hi));
        break;
      }
    case K_U64:
      fprintf (out, "an integer 0..%llu or 0x hex",
               (unsigned long long) k->hi);
      break;
    case K_OCTAL:
      fprintf (out, "an octal mode without execute bits, 0..0%llo "
               "(e.g. 0644)", (unsigned long long) k->hi);
      break;
    }
  fputs (k->after, out);
}

const char *
osp_options_size_text (char *buf, size_t n, uint64_t bytes)
{
  static const char units[] = "KMG";
  int u = -1;
  while (u < 2 && bytes >= 1024 && bytes % 1024 == 0)
    {
      bytes /= 1024;
      u++;
    }
  if (u < 0)
    snprintf (buf, n, "%llu", (unsigned long long) bytes);
  else
    snprintf (buf, n, "%llu%c", (unsigned long long) bytes, units[u]);
  return buf;
}

void
osp_options_defaults (struct osp_options *o)
{
  memset (o, 0, sizeof *o);
  for (size_t i = 0; i < NKEYS; i++)
    if (keys[i].field != NOFIELD)
      store (o, keys[i].field, keys[i].size, keys[i].def);
}

/* A key's default as doc/osp.md's table shows it. */
static void
key_default (FILE *out, const struct osp_key *k)
{
  char buf[32];
  switch (k->kind)
    {
    case K_CHOICE:
    case K_SIGNAL:
    case K_FILE:
      fprintf (out, "`%s`", k->def_template
                                ? k->def_template
                                : choice_name (k->choices, (int) k->def));
      break;
    case K_FLAG:
    case K_U32:
    case K_POW2:
      fprintf (out, "%llu", (unsigned long long) k->def);
      break;
    case K_BYTES:
      fprintf (out, "`%s`", osp_options_size_text (buf, sizeof buf, k->def));
      break;
    case K_U64:
      fputs ("random, printed in the report", out); /* seed_set 0 */
      break;
    case K_OCTAL:
      fprintf (out, "`0%llo`", (unsigned long long) k->def);
      break;
    }
}

void
osp_options_table (FILE *out)
{
  fputs ("| key | accepted | default |\n|---|---|---|\n", out);
  for (size_t i = 0; i < NKEYS; i++)
    {
      fprintf (out, "| `%s` | ", keys[i].name);
      key_accepted (out, &keys[i]);
      fputs (" | ", out);
      key_default (out, &keys[i]);
      fputs (" |\n", out);
    }
}

const char *
osp_signal_name (int sig)
{
  const char *n = choice_name (signal_choices, sig);
  return n ? n : "none";
}

const char *
osp_option_value_name (const char *key, int value)
{
  for (size_t i = 0; i < NKEYS; i++)
    if (keys[i].choices != NULL && strcmp (keys[i].name, key) == 0)
      {
        const char *n = choice_name (keys[i].choices, value);
        return n ? n : "?";
      }
  return "?";
}

const char *
osp_mode_name (enum osp_mode m)
{
  const char *n = choice_name (mode_choices, (int) m);
  return n ? n : "?";
}

const char *
osp_path_policy_name (enum osp_path_policy p)
{
  const char *n = choice_name (paths_choices, (int) p);
  return n ? n : "?";
}

const char *
osp_forest_policy_name (enum osp_forest_policy p)
{
  const char *n = choice_name (forest_choices, (int) p);
  return n ? n : "?";
}

static void
list_keys (FILE *err)
{
  for (size_t i = 0; i < NKEYS; i++)
    fprintf (err, "%s%s", i ? ", " : "", keys[i].name);
}

/* Parse one "key=value" ITEM of LEN bytes (not NUL-terminated). */
static int
parse_item (struct osp_options *o, const char *item, size_t len, FILE *err)
{
  char buf[OSP_PATH_MAX + 64];
  if (len >= sizeof buf)
    len = sizeof buf - 1; /* too long for any key: the value will fail */
  memcpy (buf, item, len);
  buf[len] = '\0';

  char *eq = strchr (buf, '=');
  if (eq == NULL)
    {
      if (err)
        {
          fprintf (err, "osp: OSP_OPTIONS: '%s' is not key=value (accepted: ",
                   buf);
          list_keys (err);
          fputs (")\n", err);
        }
      return 1;
    }
  *eq = '\0';
  const char *value = eq + 1;
  for (size_t i = 0; i < NKEYS; i++)
    if (strcmp (buf, keys[i].name) == 0)
      {
        if (key_parse (&keys[i], o, value) == 0)
          return 0;
        if (err)
          {
            fprintf (err,
                     "osp: OSP_OPTIONS: bad value '%s' for key '%s' "
                     "(accepted: ", value, keys[i].name);
            key_accepted (err, &keys[i]);
            fputs (")\n", err);
          }
        return 1;
      }
  if (err)
    {
      fprintf (err, "osp: OSP_OPTIONS: unknown key '%s' (accepted: ", buf);
      list_keys (err);
      fputs (")\n", err);
    }
  return 1;
}

/* Keys that must agree are checked once all items are read (their order
   in OSP_OPTIONS is free); a disagreement is one line, and the keys
   involved go back to what they were before this parse. */
static int
check_lengths (struct osp_options *o, const struct osp_options *before,
               FILE *err)
{
  int problems = 0;
  if (o->min_length > o->max_length)
    {
      if (err)
        fprintf (err,
                 "osp: OSP_OPTIONS: min_length %u is greater than max_length "
                 "%u (accepted: powers of two 2..65536, min_length <= "
                 "max_length)\n",
                 o->min_length, o->max_length);
      o->min_length = before->min_length;
      o->max_length = before->max_length;
      problems++;
    }
  if (o->exact_max < o->min_length)
    {
      if (err)
        fprintf (err,
                 "osp: OSP_OPTIONS: exact_max %u is less than min_length %u "
                 "(accepted: a power of two 2..65536, at least min_length)\n",
                 o->exact_max, o->min_length);
      o->exact_max = before->exact_max;
      if (o->exact_max < o->min_length)
        o->min_length = before->min_length;
      problems++;
    }
  return problems;
}

/* paths=timer writes the countdown from another thread, so the forest's
   bursts could not be counted: the forest is off under it (silently when
   forest was not asked for). */
static int
check_forest (struct osp_options *o, FILE *err)
{
  if (o->paths != OSP_PATHS_TIMER || o->forest == OSP_FOREST_OFF)
    return 0;
  int asked = o->forest_set;
  if (asked && err)
    fprintf (err, "osp: OSP_OPTIONS: forest=%s cannot be used with "
             "paths=timer (accepted: forest=off with paths=timer); the "
             "forest is off\n", osp_forest_policy_name (o->forest));
  o->forest = OSP_FOREST_OFF;
  return asked;
}

/* One signal cannot mean both a report and a snapshot. */
static int
check_signals (struct osp_options *o, const struct osp_options *before,
               FILE *err)
{
  if (o->snapshot_signal != 0 && o->snapshot_path[0] == '\0')
    {
      if (err)
        fprintf (err, "osp: OSP_OPTIONS: snapshot_signal=%s needs snapshot="
                 "FILE (where to write); snapshot_signal is none\n",
                 osp_signal_name (o->snapshot_signal));
      o->snapshot_signal = 0;
      return 1;
    }
  if (o->snapshot_signal == 0 || o->snapshot_signal != o->report_signal)
    return 0;
  if (err)
    fprintf (err, "osp: OSP_OPTIONS: snapshot_signal and report_signal are "
             "both %s (accepted: two different signals); snapshot_signal "
             "is %s\n", osp_signal_name (o->snapshot_signal),
             osp_signal_name (before->snapshot_signal == o->report_signal
                              ? 0
                              : before->snapshot_signal));
  o->snapshot_signal = before->snapshot_signal == o->report_signal
                           ? 0
                           : before->snapshot_signal;
  return 1;
}

int
osp_options_parse (struct osp_options *o, const char *spec, FILE *err)
{
  int problems = 0;
  if (spec == NULL)
    return 0;
  struct osp_options before = *o;
  while (*spec)
    {
      size_t len = strcspn (spec, ":");
      if (len > 0)
        problems += parse_item (o, spec, len, err);
      spec += len;
      if (*spec == ':')
        spec++;
    }
  problems += check_lengths (o, &before, err);
  problems += check_signals (o, &before, err);
  return problems + check_forest (o, err);
}

/* Privileged (AT_SECURE): the kernel sets it for a setuid or setgid
   program, one with file capabilities, or when an LSM asks; the C
   library's secure mode (secure_getenv) keys on the same flag. */
static int
privileged (void)
{
  return getauxval (AT_SECURE) != 0;
}

const char *
osp_options_env (void)
{
  const char *env = privileged () ? NULL : getenv ("OSP_OPTIONS");
  return env ? env : "";
}

/* Whether SPEC's last verbose item is verbose=1: the one thing a
   privileged process reads from OSP_OPTIONS, since all it changes there
   is whether the notice line below is printed. */
static int
asks_verbose (const char *spec)
{
  int v = 0;
  while (*spec)
    {
      size_t len = strcspn (spec, ":");
      if (len >= 8 && strncmp (spec, "verbose=", 8) == 0)
        v = len == 9 && spec[8] == '1';
      spec += len;
      if (*spec == ':')
        spec++;
    }
  return v;
}

void
osp_options_from_env (struct osp_options *o)
{
  const char *env = getenv ("OSP_OPTIONS");
  if (privileged ())
    {
      /* The environment is the unprivileged caller's: none of it may
         choose what a privileged process writes, or where.  And the
         profile itself (its control flow) is the privileged program's:
         no report on the caller's stderr, no view in shared memory (for
         setgid or capabilities, its owner would be the caller).  The
         program can still call osp_report (PATH) itself. */
      o->report = OSP_REPORT_NONE;
      o->publish = 0;
      o->snapshot_path[0] = '\0';
      if (env != NULL && asks_verbose (env))
        osp_warn ("osp: this program runs with privileges (setuid, setgid "
                  "or capabilities): OSP_OPTIONS ignored, no report, "
                  "snapshot or published view");
      return;
    }
  /* The start-up directory, and the default templates anchored there
     before OSP_OPTIONS may replace them. */
  if (getcwd (o->start_dir, sizeof o->start_dir) == NULL)
    o->start_dir[0] = '\0';
  for (size_t i = 0; i < NKEYS; i++)
    if (keys[i].def_template != NULL
        && anchor_template ((char *) o + keys[i].path, keys[i].def_template)
               != 0)
      ((char *) o + keys[i].path)[0] = '\0'; /* no directory: no file */
  if (env == NULL)
    return;
  /* The problem lines are gathered in memory and written at once through
     the same fd 2 check as every other line (osp_output_write). */
  char *buf = NULL;
  size_t len = 0;
  FILE *err = open_memstream (&buf, &len);
  osp_options_parse (o, env, err);
  if (err != NULL && fclose (err) == 0 && buf != NULL && len > 0)
    osp_output_write (STDERR_FILENO, buf, len);
  free (buf);
}

int
osp_expand_path (char *out, size_t size, const char *tmpl, long pid,
                 const char *host)
{
  size_t n = 0;
  char num[32];
  for (const char *p = tmpl; *p; p++)
    {
      const char *piece = p;
      size_t len = 1;
      if (*p == '%'
          && (p[1] == 'p' || p[1] == 'h' || p[1] == 'e' || p[1] == '%'))
        {
          p++;
          if (*p == 'p')
            {
              len = (size_t) snprintf (num, sizeof num, "%ld", pid);
              piece = num;
            }
          else if (*p == 'h' || *p == 'e')
            {
              piece = *p == 'h' ? host : osp_program_name ();
              len = strlen (piece);
            }
        }
      if (n + len + 1 > size)
        return -1;
      memcpy (out + n, piece, len);
      n += len;
    }
  if (n + 1 > size)
    return -1;
  out[n] = '\0';
  return 0;
}

const char *
osp_program_name (void)
{
  const char *n = program_invocation_short_name;
  if (n == NULL || n[0] == '\0' || strcmp (n, ".") == 0
      || strcmp (n, "..") == 0)
    return "program";
  return n;
}
