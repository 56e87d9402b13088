/* SPDX-License-Identifier: MIT */
/* text.c - what the text report's sections share to be read on a
 * terminal (doc/osp.md, "The exit report"): counts with their digits
 * grouped, and lines laid out within OSP_TEXT_COLUMNS.
 *
 * The sections (report-*.c) format every count they print with OSP_G, at
 * the printf that prints it, and know which of their lines are table rows
 * and which are prose: a row ends with a path of any length, which
 * osp_text_field puts after the row when it fits and on the lines below
 * when it does not; a sentence of statistics goes through a paragraph
 * (osp_para_open), which breaks it at spaces.  Identifiers stay as they
 * are: key=value fields (pid=, seed=, report_top=), line and block
 * numbers.  Machine formats (tsv, the view) never use any of this.
 */
#define _GNU_SOURCE
#include "output/output.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* DIGITS (an optional '-' then digits; anything else is copied as it is)
   into BUF with a comma between groups of three when there are five
   digits or more: four-digit numbers (1024) read well without. */
static const char *
group (char *buf, const char *digits)
{
  const char *d = digits + (digits[0] == '-');
  size_t n = strlen (d);
  if (n < 5 || strspn (d, "0123456789") != n)
    {
      snprintf (buf, OSP_GROUPED_SIZE, "%s", digits);
      return buf;
    }
  char *o = buf;
  if (d != digits)
    *o++ = '-';
  for (size_t k = 0; k < n; k++)
    {
      if (k > 0 && (n - k) % 3 == 0)
        *o++ = ',';
      *o++ = d[k];
    }
  *o = '\0';
  return buf;
}

const char *
osp_grouped_u (char *buf, uint64_t v)
{
  char digits[24];
  snprintf (digits, sizeof digits, "%llu", (unsigned long long) v);
  return group (buf, digits);
}

const char *
osp_grouped_f (char *buf, double v)
{
  char digits[OSP_GROUPED_SIZE];
  /* %.0f as the tables always printed estimates; past 21 digits (or not
     a number) %g, which has no digits to group. */
  if (v > -1e21 && v < 1e21)
    snprintf (digits, sizeof digits, "%.0f", v);
  else
    snprintf (digits, sizeof digits, "%g", v);
  return group (buf, digits);
}

/* Write TEXT[0..N) at column INDENT (already there) broken at spaces into
   lines of at most OSP_TEXT_COLUMNS, each later line indented by CONT; a
   word longer than a line is cut.  Ends with a newline. */
static void
wrap (FILE *out, const char *text, size_t n, size_t indent, size_t cont)
{
  for (;;)
    {
      size_t width = OSP_TEXT_COLUMNS - indent;
      if (n <= width)
        break;
      size_t cut = width;
      while (cut > 0 && text[cut] != ' ')
        cut--;
      while (cut > 0 && text[cut - 1] == ' ')
        cut--;
      if (cut == 0)
        cut = width;
      fwrite (text, 1, cut, out);
      fputc ('\n', out);
      while (cut < n && text[cut] == ' ')
        cut++;
      text += cut;
      n -= cut;
      fprintf (out, "%*s", (int) cont, "");
      indent = cont;
    }
  fwrite (text, 1, n, out);
  fputc ('\n', out);
}

void
osp_text_field (FILE *out, int col, int indent, const char *field)
{
  size_t n = strlen (field);
  if (col < 0)
    col = 0;
  if ((size_t) col + 2 + n <= OSP_TEXT_COLUMNS)
    {
      fputs ("  ", out);
      fwrite (field, 1, n, out);
      fputc ('\n', out);
      return;
    }
  /* below the row, every line of it at INDENT */
  fprintf (out, "\n%*s", indent, "");
  wrap (out, field, n, (size_t) indent, (size_t) indent);
}

FILE *
osp_para_open (struct osp_para *pa, FILE *out)
{
  pa->out = out;
  pa->buf = NULL;
  pa->len = 0;
  pa->mem = open_memstream (&pa->buf, &pa->len);
  /* out of memory: the paragraph goes out as it is, unbroken */
  return pa->mem ? pa->mem : out;
}

void
osp_para_close (struct osp_para *pa)
{
  if (pa->mem == NULL)
    {
      fputc ('\n', pa->out);
      return;
    }
  if (fclose (pa->mem) != 0)
    {
      free (pa->buf);
      fputc ('\n', pa->out);
      return;
    }
  size_t lead = strspn (pa->buf, " ");
  /* a line that starts past the middle is left as it is */
  if (lead >= OSP_TEXT_COLUMNS / 2)
    {
      fwrite (pa->buf, 1, pa->len, pa->out);
      fputc ('\n', pa->out);
    }
  else
    {
      fwrite (pa->buf, 1, lead, pa->out);
      wrap (pa->out, pa->buf + lead, pa->len - lead, lead, lead + 4);
    }
  free (pa->buf);
}

void
osp_text_line (FILE *out, const char *fmt, ...)
{
  struct osp_para pa;
  FILE *l = osp_para_open (&pa, out);
  va_list ap;
  va_start (ap, fmt);
  vfprintf (l, fmt, ap);
  va_end (ap);
  osp_para_close (&pa);
}
