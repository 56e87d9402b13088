/* SPDX-License-Identifier: MIT */
/* textfit.c - the text report made for a terminal: digits grouped, lines
 * at most OSP_TEXT_COLUMNS wide (doc/osp.md, "The text report").
 *
 * Why a pass over the finished text rather than at each printf: the
 * sections (report-*.c) lay their tables out once, and the same layout is
 * what the unit tests check; grouping every count at its printf would
 * mean a second width for every column of every section.  The pass keeps
 * the layout: a number that gains commas takes them from the spaces
 * before it (a right-aligned column keeps its right edge), and a line too
 * wide is folded (fold_line): a table row's path goes below its numbers,
 * prose breaks at spaces.  Machine formats (tsv) never come here.
 *
 * Which numbers: a run of five or more digits standing alone - not part
 * of a word or a name (file12345.c), not after '=' (pid=12345, seed=...,
 * option values the user may paste back), '.' or ':' (fractions, line
 * numbers), nor after a '-' that follows a digit (a range of lines), and
 * not followed by a letter or '_'.  Four digits (1024, 2026) stay as they
 * are.
 */
#define _GNU_SOURCE
#include "output/output.h"

#include <stdlib.h>
#include <string.h>

static int
is_word (char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'
         || (c >= '0' && c <= '9');
}

static int
is_digit (char c)
{
  return c >= '0' && c <= '9';
}

/* Append LINE[0..N) to OUT with its numbers grouped. */
static void
group_line (FILE *out, const char *line, size_t n)
{
  size_t i = 0, pending = 0; /* spaces seen but not written yet */
  while (i < n)
    {
      if (line[i] == ' ')
        {
          pending++;
          i++;
          continue;
        }
      size_t j = i;
      char before = i > 0 ? line[i - 1] : ' ';
      while (j < n && is_digit (line[j]))
        j++;
      size_t digits = j - i;
      char after = j < n ? line[j] : ' ';
      int range = before == '-' && i >= 2 && is_digit (line[i - 2]);
      int group = digits >= 5 && !is_word (before) && before != '='
                  && before != '.' && before != ':' && before != ','
                  && !range
                  && !((after >= 'a' && after <= 'z')
                       || (after >= 'A' && after <= 'Z') || after == '_');
      if (!group)
        {
          for (; pending > 0; pending--)
            fputc (' ', out);
          size_t k = j > i ? j : i + 1;
          fwrite (line + i, 1, k - i, out);
          i = k;
          continue;
        }
      size_t commas = (digits - 1) / 3;
      /* Take the commas from the padding, keeping one space. */
      size_t take = pending > commas ? commas : (pending > 0 ? pending - 1 : 0);
      for (pending -= take; pending > 0; pending--)
        fputc (' ', out);
      for (size_t d = 0; d < digits; d++)
        {
          if (d > 0 && (digits - d) % 3 == 0)
            fputc (',', out);
          fputc (line[i + d], out);
        }
      i = j;
    }
  for (; pending > 0; pending--)
    fputc (' ', out);
}

/* Where LINE's last field starts (after two spaces, past its indentation:
   a table row's path, a tree node's code), or 0. */
static size_t
last_field (const char *line, size_t n, size_t lead)
{
  size_t at = 0;
  for (size_t k = lead; k + 2 < n; k++)
    if (line[k] == ' ' && line[k + 1] == ' ' && line[k + 2] != ' ')
      at = k + 2;
  return at;
}

/* Write LINE[0..N) to OUT broken into pieces of at most OSP_TEXT_COLUMNS:
   a row whose last field does not fit puts that field on the lines below,
   indented by 8 past the row's own indentation; any other line breaks at
   its last space that fits, the rest indented by 4 more. */
static void
fold_line (FILE *out, const char *line, size_t n)
{
  size_t lead = 0;
  while (lead < n && line[lead] == ' ')
    lead++;
  if (n <= OSP_TEXT_COLUMNS || lead >= OSP_TEXT_COLUMNS / 2)
    {
      fwrite (line, 1, n, out);
      fputc ('\n', out);
      return;
    }
  size_t field = last_field (line, n, lead), cont = lead + 4, indent = 0;
  if (field > 0 && field <= OSP_TEXT_COLUMNS)
    {
      size_t end = field;
      while (end > 0 && line[end - 1] == ' ')
        end--;
      fwrite (line, 1, end, out);
      fputc ('\n', out);
      line += field;
      n -= field;
      cont = indent = lead + 8;
    }
  for (;;)
    {
      size_t width = OSP_TEXT_COLUMNS - indent;
      if (n <= width)
        break;
      size_t cut = width;
      while (cut > 0 && line[cut] != ' ')
        cut--;
      while (cut > 0 && line[cut - 1] == ' ')
        cut--;
      if (cut == 0)
        cut = width; /* no space to break at: cut */
      fprintf (out, "%*s", (int) indent, "");
      fwrite (line, 1, cut, out);
      fputc ('\n', out);
      while (cut < n && line[cut] == ' ')
        cut++;
      line += cut;
      n -= cut;
      indent = cont;
    }
  fprintf (out, "%*s", (int) indent, "");
  fwrite (line, 1, n, out);
  fputc ('\n', out);
}

int
osp_text_fit (const char *in, size_t len, char **out, size_t *outlen)
{
  char *grouped = NULL;
  size_t glen = 0;
  FILE *g = open_memstream (&grouped, &glen);
  if (g == NULL)
    return -1;
  for (size_t at = 0; at < len;)
    {
      const char *nl = memchr (in + at, '\n', len - at);
      size_t n = nl ? (size_t) (nl - (in + at)) : len - at;
      group_line (g, in + at, n);
      fputc ('\n', g);
      at += n + 1;
    }
  if (fclose (g) != 0)
    {
      free (grouped);
      return -1;
    }
  FILE *f = open_memstream (out, outlen);
  if (f == NULL)
    {
      free (grouped);
      return -1;
    }
  for (size_t at = 0; at < glen;)
    {
      const char *nl = memchr (grouped + at, '\n', glen - at);
      size_t n = nl ? (size_t) (nl - (grouped + at)) : glen - at;
      fold_line (f, grouped + at, n);
      at += n + 1;
    }
  free (grouped);
  if (fclose (f) != 0)
    {
      free (*out);
      *out = NULL;
      return -1;
    }
  return 0;
}
