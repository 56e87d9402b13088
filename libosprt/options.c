/* options.c - OSP_OPTIONS="key=value:key=value" (doc/CONTRACTS.md).
 *
 * A profiler must never stop the program it profiles, so a bad option is
 * not an error: it gets one line on stderr naming it and listing what is
 * accepted, keeps its default, and the program runs on.  The keys live in
 * one table (name, parser, accepted values) so that the list printed in
 * those lines can never drift from what the parser really accepts.
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
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

struct osp_key
{
  const char *name;
  const char *accepted; /* shown after a bad value */
  /* Returns 0, or -1 if VALUE is not accepted (O unchanged). */
  int (*parse) (struct osp_options *o, const char *value);
};

/* Strict unsigned decimal in [LO, HI]: no sign, no spaces, no suffix. */
static int
parse_u32 (const char *value, uint32_t lo, uint32_t hi, uint32_t *out)
{
  if (*value < '0' || *value > '9')
    return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull (value, &end, 10);
  if (errno != 0 || *end != '\0' || v < lo || v > hi)
    return -1;
  *out = (uint32_t) v;
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

/* A power of two in [2, 65536]. */
static int
parse_pow2 (const char *value, uint32_t *out)
{
  uint32_t v;
  if (parse_u32 (value, 2, 65536, &v) != 0 || (v & (v - 1)) != 0)
    return -1;
  *out = v;
  return 0;
}

static int
parse_mode (struct osp_options *o, const char *value)
{
  if (strcmp (value, "subpaths") == 0)
    o->mode = OSP_MODE_SUBPATHS;
  else if (strcmp (value, "subpaths-exact") == 0)
    o->mode = OSP_MODE_SUBPATHS_EXACT;
  else if (strcmp (value, "blocks") == 0)
    o->mode = OSP_MODE_BLOCKS;
  else if (strcmp (value, "off") == 0)
    o->mode = OSP_MODE_OFF;
  else
    return -1;
  return 0;
}

/* Only %p, %h and %% are known: an unknown escape is almost certainly a
   typo, and silently writing a file named "prof.%d" would hide it. */
static int
path_template_ok (const char *p)
{
  for (; *p; p++)
    if (*p == '%')
      {
        p++;
        if (*p != 'p' && *p != 'h' && *p != '%')
          return 0;
      }
  return 1;
}

/* A file template (%p %h %%) into OUT (OSP_PATH_MAX bytes), anchored at
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

static int
parse_report (struct osp_options *o, const char *value)
{
  if (strcmp (value, "none") == 0)
    o->report = OSP_REPORT_NONE;
  else if (strcmp (value, "stderr") == 0)
    o->report = OSP_REPORT_STDERR;
  else if (strcmp (value, "stdout") == 0)
    o->report = OSP_REPORT_STDOUT;
  else
    {
      if (anchor_template (o->report_path, value) != 0)
        return -1;
      o->report = OSP_REPORT_FILE;
    }
  return 0;
}

static int
parse_report_format (struct osp_options *o, const char *value)
{
  if (strcmp (value, "text") == 0)
    o->report_format = OSP_FORMAT_TEXT;
  else if (strcmp (value, "tsv") == 0)
    o->report_format = OSP_FORMAT_TSV;
  else
    return -1;
  return 0;
}

static int
parse_report_top (struct osp_options *o, const char *value)
{
  return parse_u32 (value, 1, 100000, &o->report_top);
}

static int
parse_max_functions (struct osp_options *o, const char *value)
{
  return parse_u32 (value, 1, 16777216, &o->max_functions);
}

static int
parse_verbose (struct osp_options *o, const char *value)
{
  uint32_t v;
  if (parse_u32 (value, 0, 1, &v) != 0)
    return -1;
  o->verbose = (int) v;
  return 0;
}

static int
parse_interval (struct osp_options *o, const char *value)
{
  return parse_u32 (value, 1, 1000000000, &o->interval);
}

static int
parse_gain (struct osp_options *o, const char *value)
{
  return parse_u32 (value, 0, 1000000000, &o->gain);
}

static int
parse_min_length (struct osp_options *o, const char *value)
{
  return parse_pow2 (value, &o->min_length);
}

static int
parse_max_length (struct osp_options *o, const char *value)
{
  return parse_pow2 (value, &o->max_length);
}

static int
parse_length_bias (struct osp_options *o, const char *value)
{
  if (strcmp (value, "geometric") == 0)
    o->length_bias = OSP_BIAS_GEOMETRIC;
  else if (strcmp (value, "uniform") == 0)
    o->length_bias = OSP_BIAS_UNIFORM;
  else if (strcmp (value, "long") == 0)
    o->length_bias = OSP_BIAS_LONG;
  else
    return -1;
  return 0;
}

static int
parse_hotlist_bytes (struct osp_options *o, const char *value)
{
  return parse_bytes (value, HL_MIN_BYTES, (uint64_t) 1 << 32,
                      &o->hotlist_bytes);
}

static int
parse_policy (struct osp_options *o, const char *value)
{
  if (strcmp (value, "concise") == 0)
    o->policy = HL_CONCISE;
  else if (strcmp (value, "spacesaving") == 0)
    o->policy = HL_SPACE_SAVING;
  else
    return -1;
  return 0;
}

static int
parse_encoding (struct osp_options *o, const char *value)
{
  if (strcmp (value, "sequence") == 0)
    o->encoding = HL_ENC_SEQUENCE;
  else if (strcmp (value, "xor") == 0)
    o->encoding = HL_ENC_XOR;
  else if (strcmp (value, "rotation") == 0)
    o->encoding = HL_ENC_ROTATION;
  else
    return -1;
  return 0;
}

static int
parse_seed (struct osp_options *o, const char *value)
{
  if (parse_u64 (value, &o->seed) != 0)
    return -1;
  o->seed_set = 1;
  return 0;
}

static int
parse_exact_max (struct osp_options *o, const char *value)
{
  return parse_pow2 (value, &o->exact_max);
}

static int
parse_exact_bytes (struct osp_options *o, const char *value)
{
  return parse_bytes (value, (uint64_t) 1 << 16, (uint64_t) 1 << 34,
                      &o->exact_bytes);
}

/* Signals a program rarely uses for itself; "SIG" prefix optional. */
static const struct
{
  const char *name;
  int sig;
} report_signals[] = {
  { "USR1", SIGUSR1 }, { "USR2", SIGUSR2 }, { "HUP", SIGHUP },
  { "WINCH", SIGWINCH }, { "URG", SIGURG }, { "PWR", SIGPWR },
};

static int
parse_signal (const char *value, int *out)
{
  if (strcmp (value, "none") == 0)
    {
      *out = 0;
      return 0;
    }
  if (strncmp (value, "SIG", 3) == 0)
    value += 3;
  for (size_t i = 0; i < sizeof report_signals / sizeof *report_signals; i++)
    if (strcmp (value, report_signals[i].name) == 0)
      {
        *out = report_signals[i].sig;
        return 0;
      }
  return -1;
}

const char *
osp_signal_name (int sig)
{
  for (size_t i = 0; i < sizeof report_signals / sizeof *report_signals; i++)
    if (report_signals[i].sig == sig)
      return report_signals[i].name;
  return "none";
}

static int
parse_report_signal (struct osp_options *o, const char *value)
{
  return parse_signal (value, &o->report_signal);
}

static int
parse_snapshot (struct osp_options *o, const char *value)
{
  if (strcmp (value, "none") == 0)
    {
      o->snapshot_path[0] = '\0';
      return 0;
    }
  return anchor_template (o->snapshot_path, value);
}

static int
parse_snapshot_signal (struct osp_options *o, const char *value)
{
  return parse_signal (value, &o->snapshot_signal);
}

static int
parse_snapshot_bytes (struct osp_options *o, const char *value)
{
  return parse_bytes (value, (uint64_t) 1 << 16, (uint64_t) 1 << 32,
                      &o->snapshot_bytes);
}

static const char *const path_policy_names[] = { "counter", "timer",
                                                 "exhaustive", "off" };

const char *
osp_path_policy_name (enum osp_path_policy p)
{
  return (unsigned) p < sizeof path_policy_names / sizeof *path_policy_names
             ? path_policy_names[p]
             : "?";
}

static int
parse_paths (struct osp_options *o, const char *value)
{
  for (size_t i = 0; i < sizeof path_policy_names / sizeof *path_policy_names;
       i++)
    if (strcmp (value, path_policy_names[i]) == 0)
      {
        o->paths = (enum osp_path_policy) i;
        return 0;
      }
  return -1;
}

static int
parse_path_interval (struct osp_options *o, const char *value)
{
  return parse_u32 (value, 1, 1000000000, &o->path_interval);
}

static int
parse_path_gain (struct osp_options *o, const char *value)
{
  return parse_u32 (value, 0, 1000000000, &o->path_gain);
}

static int
parse_path_samples (struct osp_options *o, const char *value)
{
  return parse_u32 (value, 1, 1000000, &o->path_samples);
}

static int
parse_path_stride (struct osp_options *o, const char *value)
{
  return parse_u32 (value, 1, 1000000, &o->path_stride);
}

static int
parse_path_period (struct osp_options *o, const char *value)
{
  return parse_u32 (value, 1, 60000, &o->path_period);
}

static int
parse_path_bytes (struct osp_options *o, const char *value)
{
  return parse_bytes (value, (uint64_t) 1 << 16, (uint64_t) 1 << 32,
                      &o->path_bytes);
}

static int
parse_verify_paths (struct osp_options *o, const char *value)
{
  uint32_t v;
  if (parse_u32 (value, 0, 1, &v) != 0)
    return -1;
  o->verify_paths = (int) v;
  return 0;
}

static const char *const forest_policy_names[] = { "burst", "exhaustive",
                                                   "off" };

const char *
osp_forest_policy_name (enum osp_forest_policy p)
{
  return (unsigned) p < sizeof forest_policy_names / sizeof *forest_policy_names
             ? forest_policy_names[p]
             : "?";
}

static int
parse_forest (struct osp_options *o, const char *value)
{
  for (size_t i = 0;
       i < sizeof forest_policy_names / sizeof *forest_policy_names; i++)
    if (strcmp (value, forest_policy_names[i]) == 0)
      {
        o->forest = (enum osp_forest_policy) i;
        o->forest_set = 1;
        return 0;
      }
  return -1;
}

static int
parse_forest_k (struct osp_options *o, const char *value)
{
  return parse_u32 (value, 1, 64, &o->forest_k);
}

static int
parse_forest_burst (struct osp_options *o, const char *value)
{
  return parse_u32 (value, 16, 1048576, &o->forest_burst);
}

static int
parse_forest_interval (struct osp_options *o, const char *value)
{
  return parse_u32 (value, 1, 1000000000, &o->forest_interval);
}

static int
parse_forest_bytes (struct osp_options *o, const char *value)
{
  return parse_bytes (value, (uint64_t) 1 << 16, (uint64_t) 1 << 32,
                      &o->forest_bytes);
}

static int
parse_forest_threads (struct osp_options *o, const char *value)
{
  return parse_u32 (value, 1, 4096, &o->forest_threads);
}

static int
parse_forest_prune (struct osp_options *o, const char *value)
{
  return parse_u32 (value, 0, 100, &o->forest_prune);
}

static int
parse_publish (struct osp_options *o, const char *value)
{
  if (strcmp (value, "on") == 0)
    o->publish = 1;
  else if (strcmp (value, "off") == 0)
    o->publish = 0;
  else
    return -1;
  return 0;
}

static int
parse_publish_ms (struct osp_options *o, const char *value)
{
  return parse_u32 (value, 50, 60000, &o->publish_ms);
}

static int
parse_publish_bytes (struct osp_options *o, const char *value)
{
  return parse_bytes (value, (uint64_t) 1 << 16, (uint64_t) 1 << 30,
                      &o->publish_bytes);
}

/* An octal file mode without execute bits (a report is not a program),
   e.g. 600, 0640, 0644. */
static int
parse_file_mode (struct osp_options *o, const char *value)
{
  if (*value < '0' || *value > '7' || strlen (value) > 4)
    return -1;
  errno = 0;
  char *end;
  unsigned long v = strtoul (value, &end, 8);
  if (errno != 0 || *end != '\0' || (v & ~0666ul) != 0)
    return -1;
  o->file_mode = (uint32_t) v;
  return 0;
}

static const struct osp_key keys[] = {
  { "mode", "subpaths, subpaths-exact, blocks, off", parse_mode },
  { "report", "stderr, stdout, none, or a file path with %p %h %%",
    parse_report },
  { "report_format", "text, tsv", parse_report_format },
  { "report_top", "an integer 1..100000", parse_report_top },
  { "max_functions", "an integer 1..16777216", parse_max_functions },
  { "verbose", "0, 1", parse_verbose },
  { "interval", "an integer 1..1000000000", parse_interval },
  { "gain", "an integer 0..1000000000 (0: no limit)", parse_gain },
  { "min_length", "a power of two 2..65536, at most max_length",
    parse_min_length },
  { "max_length", "a power of two 2..65536, at least min_length",
    parse_max_length },
  { "length_bias", "geometric, uniform, long", parse_length_bias },
  { "hotlist_bytes", "a size 4K..4G, suffix k/K, m/M or g/G allowed",
    parse_hotlist_bytes },
  { "policy", "concise, spacesaving", parse_policy },
  { "encoding", "sequence, xor, rotation", parse_encoding },
  { "seed", "an integer 0..18446744073709551615 or 0x hex", parse_seed },
  { "exact_max", "a power of two 2..65536, at least min_length",
    parse_exact_max },
  { "exact_bytes", "a size 64K..16G, suffix k/K, m/M or g/G allowed",
    parse_exact_bytes },
  { "report_signal", "none, USR1, USR2, HUP, WINCH, URG, PWR (SIG prefix "
                     "optional)", parse_report_signal },
  { "paths", "counter, timer, exhaustive, off", parse_paths },
  { "path_interval", "an integer 1..1000000000", parse_path_interval },
  { "path_gain", "an integer 0..1000000000 (0: no limit)", parse_path_gain },
  { "path_samples", "an integer 1..1000000", parse_path_samples },
  { "path_stride", "an integer 1..1000000", parse_path_stride },
  { "path_period", "milliseconds, an integer 1..60000", parse_path_period },
  { "path_bytes", "a size 64K..4G, suffix k/K, m/M or g/G allowed",
    parse_path_bytes },
  { "verify_paths", "0, 1", parse_verify_paths },
  { "forest", "burst, exhaustive, off", parse_forest },
  { "forest_k", "an integer 1..64", parse_forest_k },
  { "forest_burst", "an integer 16..1048576", parse_forest_burst },
  { "forest_interval", "an integer 1..1000000000", parse_forest_interval },
  { "forest_bytes", "a size 64K..4G, suffix k/K, m/M or g/G allowed",
    parse_forest_bytes },
  { "forest_threads", "an integer 1..4096", parse_forest_threads },
  { "forest_prune", "a percentage, an integer 0..100", parse_forest_prune },
  { "publish", "on, off", parse_publish },
  { "publish_ms", "milliseconds, an integer 50..60000", parse_publish_ms },
  { "publish_bytes", "a size 64K..1G, suffix k/K, m/M or g/G allowed",
    parse_publish_bytes },
  { "snapshot", "none, or a file path with %p %h %%", parse_snapshot },
  { "snapshot_signal", "none, USR1, USR2, HUP, WINCH, URG, PWR (SIG prefix "
                       "optional), not report_signal's", parse_snapshot_signal },
  { "snapshot_bytes", "a size 64K..4G, suffix k/K, m/M or g/G allowed",
    parse_snapshot_bytes },
  { "file_mode", "an octal mode without execute bits, 0..0666 (e.g. 0644)",
    parse_file_mode },
};
#define NKEYS (sizeof keys / sizeof keys[0])

void
osp_options_defaults (struct osp_options *o)
{
  memset (o, 0, sizeof *o);
  o->mode = OSP_MODE_SUBPATHS;
  o->report = OSP_REPORT_STDERR;
  o->report_format = OSP_FORMAT_TEXT;
  o->report_top = 20;
  o->max_functions = 65536;
  o->verbose = 0;
  o->interval = 1000;
  o->gain = 300;
  o->min_length = 2;
  o->max_length = 1024;
  o->length_bias = OSP_BIAS_GEOMETRIC;
  o->hotlist_bytes = 64 * 1024;
  o->policy = HL_CONCISE;
  o->encoding = HL_ENC_SEQUENCE;
  o->seed = 0;
  o->seed_set = 0;
  o->exact_max = 32;
  o->exact_bytes = (uint64_t) 256 << 20;
  o->report_signal = 0;
  o->paths = OSP_PATHS_COUNTER;
  o->path_interval = 1000;
  o->path_gain = 300;
  o->path_samples = 64;
  o->path_stride = 17;
  o->path_period = 10;
  o->path_bytes = (uint64_t) 4 << 20;
  o->verify_paths = 0;
  o->forest = OSP_FOREST_BURST;
  o->forest_set = 0;
  o->forest_k = 8;
  o->forest_burst = 256;
  o->forest_interval = 65536;
  o->forest_bytes = (uint64_t) 2 << 20;
  o->forest_threads = 64;
  o->forest_prune = 10;
  o->publish = 1;
  o->publish_ms = 500;
  o->publish_bytes = (uint64_t) 4 << 20;
  o->snapshot_path[0] = '\0';
  o->snapshot_signal = 0;
  o->snapshot_bytes = (uint64_t) 256 << 20;
  o->file_mode = 0600;
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
        if (keys[i].parse (o, value) == 0)
          return 0;
        if (err)
          fprintf (err,
                   "osp: OSP_OPTIONS: bad value '%s' for key '%s' "
                   "(accepted: %s)\n",
                   value, keys[i].name, keys[i].accepted);
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
      if (env != NULL && asks_verbose (env))
        osp_warn ("osp: this program runs with privileges (setuid, setgid "
                  "or capabilities): OSP_OPTIONS ignored, no report, "
                  "snapshot or published view");
      return;
    }
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
      if (*p == '%' && (p[1] == 'p' || p[1] == 'h' || p[1] == '%'))
        {
          p++;
          if (*p == 'p')
            {
              len = (size_t) snprintf (num, sizeof num, "%ld", pid);
              piece = num;
            }
          else if (*p == 'h')
            {
              piece = host;
              len = strlen (host);
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
