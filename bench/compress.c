/* bench/compress.c - compressor benchmark for the osp benchmark runner.
 *
 * What it is: an LZ77-family (LZSS) compressor and its decompressor, round-tripping generated
 * text-like data.  The compressor finds matches in a 64 KiB sliding window through a hash of the
 * next 3 bytes and chains of earlier positions with the same hash (as deflate does), bounded
 * chain walks, and one-step lazy matching (a match is deferred when the next position has a
 * longer one).  Output: groups of 8 tokens behind a flag byte; a literal is 1 byte, a match 3
 * (16-bit distance, length - 3 in one byte, lengths 3..258).  The data is compressed in
 * independent 1 MiB blocks.
 *
 * What it stands for: the compressors C users run and profile (gzip/zlib's deflate_slow, lz4,
 * the SPEC compress/gzip/bzip2 codes): a hot match-finding loop with data-dependent exits and a
 * byte-at-a-time decoder.
 *
 * Input: pseudo-English text made of a generated vocabulary with a skewed (Zipf-like) word
 * distribution, sentences, punctuation, numbers and line breaks, from a fixed-seed generator.
 * Sizes: small = 256 KiB, default = 20 MiB.
 *
 * How the result is checked: every block decompresses to exactly its input, the whole output's
 * ratio is in a plausible range for such text (between 20% and 70% of the input), and matches
 * and literals both occur.  The checksum digests the input length, the compressed length and
 * the FNV-1a hash of the compressed bytes.
 *
 * Usage: compress [small|default].  Prints "compress SIZE ok checksum=HEX" and exits 0, or
 * "compress SIZE FAILED: reason" and exits 1.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define WINDOW (1u << 16)
#define HASH_BITS 15
#define HASH_SIZE (1u << HASH_BITS)
#define MIN_MATCH 3
#define MAX_MATCH 258
#define MAX_CHAIN 48
#define GOOD_ENOUGH 64      /* stop searching at a match this long */
#define BLOCK (1u << 20)

static uint64_t rng_state = 0x0123456789abcdefULL;

/* xorshift64*: the benchmark's own generator with a fixed seed. */
uint64_t rng_next(void)
{
  return bench_xorshift64s(&rng_state);
}

static unsigned rng_below(unsigned n)
{
  return (unsigned)((rng_next() >> 33) % n);
}

/* ---- input generator ------------------------------------------------------------------- */

#define VOCAB 3000

struct vocab {
  char *word[VOCAB];
  unsigned char len[VOCAB];
};

void make_vocab(struct vocab *v)
{
  static const char *const syl[] = {
    "th", "e", "an", "in", "er", "on", "re", "at", "ou", "it", "st", "al", "ing", "ed", "or",
    "es", "ti", "ar", "te", "ng", "se", "ha", "ve", "co", "me", "de", "hi", "ri", "ro", "ic",
    "ne", "ea", "ra", "ce", "li", "ch", "ll", "be", "ma", "si", "om", "ur", "ca", "el", "ta",
    "la", "ns", "di", "fo", "ho", "pe", "ec", "pr", "no", "ct", "us", "ac", "ot", "il", "tr"};
  const unsigned nsyl = sizeof syl / sizeof syl[0];
  for (unsigned i = 0; i < VOCAB; i++) {
    char buf[40];
    unsigned n = 0, parts = 1 + rng_below(i < 100 ? 2 : 4);
    for (unsigned p = 0; p < parts; p++) {
      const char *s = syl[rng_below(nsyl)];
      while (*s && n < sizeof buf - 1)
        buf[n++] = *s++;
    }
    v->word[i] = bench_xmalloc(n + 1);
    memcpy(v->word[i], buf, n);
    v->word[i][n] = 0;
    v->len[i] = (unsigned char)n;
  }
}

/* Fill buf[0..n) with sentences; words drawn with a skewed distribution. */
void make_text(const struct vocab *v, unsigned char *buf, size_t n)
{
  size_t pos = 0, line = 0;
  int start = 1;
  while (pos < n) {
    double u = bench_unit(rng_next());
    unsigned w = (unsigned)(VOCAB * u * u * u);
    char tmp[48];
    size_t len;
    if (rng_below(40) == 0) {
      len = (size_t)snprintf(tmp, sizeof tmp, "%u", rng_below(100000));
    } else {
      memcpy(tmp, v->word[w], v->len[w]);
      len = v->len[w];
      if (start && tmp[0] >= 'a' && tmp[0] <= 'z')
        tmp[0] = (char)(tmp[0] - 'a' + 'A');
    }
    start = 0;
    unsigned r = rng_below(100);
    if (r < 8) {
      tmp[len++] = '.';
      start = 1;
    } else if (r < 14) {
      tmp[len++] = ',';
    } else if (r == 14) {
      tmp[len++] = '?';
      start = 1;
    }
    for (size_t i = 0; i < len && pos < n; i++, line++)
      buf[pos++] = (unsigned char)tmp[i];
    if (pos < n) {
      if (line > 64 + rng_below(12)) {
        buf[pos++] = '\n';
        line = 0;
      } else {
        buf[pos++] = ' ';
        line++;
      }
    }
  }
}

/* ---- compressor ------------------------------------------------------------------------ */

struct lz_stats {
  uint64_t literals, matches, match_bytes, chain_steps;
};

static struct lz_stats stats;

static inline unsigned hash3(const unsigned char *p)
{
  uint32_t v = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
  return (v * 2654435761u) >> (32 - HASH_BITS);
}

/* Longest match for position pos among the chain of earlier positions; returns its length
 * (0 if shorter than MIN_MATCH), *dist gets the distance. */
unsigned find_match(const unsigned char *in, size_t pos, size_t n, const int32_t *head,
                    const int32_t *prev, unsigned *dist)
{
  unsigned best = MIN_MATCH - 1, chain = MAX_CHAIN;
  size_t maxlen = n - pos < MAX_MATCH ? n - pos : MAX_MATCH;
  if (maxlen < MIN_MATCH)
    return 0;
  int32_t cand = head[hash3(in + pos)];
  while (cand >= 0 && chain-- > 0) {
    size_t c = (size_t)cand;
    if (pos - c > WINDOW - 1)
      break;
    stats.chain_steps++;
    /* quick reject on the byte that would extend the best match */
    if (in[c + best] == in[pos + best] && in[c] == in[pos]) {
      unsigned len = 1;
      while (len < maxlen && in[c + len] == in[pos + len])
        len++;
      if (len > best) {
        best = len;
        *dist = (unsigned)(pos - c);
        if (len >= GOOD_ENOUGH || len == maxlen)
          break;
      }
    }
    cand = prev[c & (WINDOW - 1)];
  }
  return best >= MIN_MATCH ? best : 0;
}

static inline void insert_pos(const unsigned char *in, size_t pos, size_t n, int32_t *head,
                              int32_t *prev)
{
  if (pos + MIN_MATCH > n)
    return;
  unsigned h = hash3(in + pos);
  prev[pos & (WINDOW - 1)] = head[h];
  head[h] = (int32_t)pos;
}

struct out_buf {
  unsigned char *p;
  size_t len;
  size_t flag_at;   /* position of the current flag byte */
  unsigned nflags;  /* tokens behind it so far */
};

static inline void put_token_flag(struct out_buf *o, int is_match)
{
  if (o->nflags == 8 || o->len == 0) {
    o->flag_at = o->len;
    o->p[o->len++] = 0;
    o->nflags = 0;
  }
  if (is_match)
    o->p[o->flag_at] |= (unsigned char)(1u << o->nflags);
  o->nflags++;
}

/* Compress in[0..n) into out (capacity n + n / 8 + 16); returns the compressed length. */
size_t lz_compress(const unsigned char *in, size_t n, unsigned char *out, int32_t *head,
                   int32_t *prev)
{
  struct out_buf o = {out, 0, 0, 0};
  for (unsigned i = 0; i < HASH_SIZE; i++)
    head[i] = -1;
  size_t pos = 0;
  unsigned dist = 0, len = find_match(in, 0, n, head, prev, &dist);
  while (pos < n) {
    if (len) {
      /* lazy: a longer match one byte later wins; emit this byte as a literal instead */
      insert_pos(in, pos, n, head, prev);
      unsigned dist2 = 0, len2 = 0;
      if (len < GOOD_ENOUGH && pos + 1 < n)
        len2 = find_match(in, pos + 1, n, head, prev, &dist2);
      if (len2 > len) {
        put_token_flag(&o, 0);
        o.p[o.len++] = in[pos];
        stats.literals++;
        pos++;
        len = len2;
        dist = dist2;
        continue;
      }
      put_token_flag(&o, 1);
      o.p[o.len++] = (unsigned char)(dist & 0xff);
      o.p[o.len++] = (unsigned char)(dist >> 8);
      o.p[o.len++] = (unsigned char)(len - MIN_MATCH);
      stats.matches++;
      stats.match_bytes += len;
      for (size_t k = pos + 1; k < pos + len; k++)
        insert_pos(in, k, n, head, prev);
      pos += len;
    } else {
      insert_pos(in, pos, n, head, prev);
      put_token_flag(&o, 0);
      o.p[o.len++] = in[pos];
      stats.literals++;
      pos++;
    }
    len = pos < n ? find_match(in, pos, n, head, prev, &dist) : 0;
  }
  return o.len;
}

/* Decompress in[0..n) into out (capacity cap); returns the length, or (size_t)-1 when the
 * stream is corrupt. */
size_t lz_decompress(const unsigned char *in, size_t n, unsigned char *out, size_t cap)
{
  size_t ip = 0, op = 0;
  while (ip < n) {
    unsigned flags = in[ip++];
    for (unsigned t = 0; t < 8 && ip < n; t++) {
      if (flags & (1u << t)) {
        if (ip + 3 > n)
          return (size_t)-1;
        size_t dist = in[ip] | (size_t)in[ip + 1] << 8;
        size_t len = (size_t)in[ip + 2] + MIN_MATCH;
        ip += 3;
        if (dist == 0 || dist > op || op + len > cap)
          return (size_t)-1;
        const unsigned char *src = out + op - dist;
        if (dist >= len) {
          memcpy(out + op, src, len);
        } else {
          for (size_t k = 0; k < len; k++) /* overlapping copy */
            out[op + k] = src[k];
        }
        op += len;
      } else {
        if (op >= cap)
          return (size_t)-1;
        out[op++] = in[ip++];
      }
    }
  }
  return op;
}

int main(int argc, char **argv)
{
  int small = bench_init(argc, argv, "compress");
  size_t total = small ? (size_t)256 << 10 : (size_t)20 << 20;

  static struct vocab voc;
  make_vocab(&voc);
  unsigned char *in = bench_xmalloc(total);
  make_text(&voc, in, total);
  unsigned char *cbuf = bench_xmalloc(BLOCK + BLOCK / 8 + 16);
  unsigned char *dbuf = bench_xmalloc(BLOCK);
  int32_t *head = bench_xmalloc(HASH_SIZE * sizeof *head);
  int32_t *prev = bench_xmalloc(WINDOW * sizeof *prev);

  uint64_t h = BENCH_FNV_BASIS;
  size_t ctotal = 0;
  const char *fail = NULL;
  char why[160];
  for (size_t off = 0; off < total && !fail; off += BLOCK) {
    size_t n = total - off < BLOCK ? total - off : BLOCK;
    size_t clen = lz_compress(in + off, n, cbuf, head, prev);
    ctotal += clen;
    h = bench_fnv1a(h, cbuf, clen);
    size_t dlen = lz_decompress(cbuf, clen, dbuf, BLOCK);
    if (dlen == (size_t)-1) {
      snprintf(why, sizeof why, "block at %zu: corrupt compressed stream", off);
      fail = why;
    } else if (dlen != n || memcmp(dbuf, in + off, n) != 0) {
      snprintf(why, sizeof why, "block at %zu: round trip differs (%zu of %zu bytes)", off,
               dlen, n);
      fail = why;
    }
  }
  double ratio = (double)ctotal / (double)total;
  if (!fail && !(ratio > 0.20 && ratio < 0.70)) {
    snprintf(why, sizeof why, "compression ratio %.3f out of the plausible range", ratio);
    fail = why;
  }
  if (!fail && (stats.matches == 0 || stats.literals == 0))
    fail = "no matches or no literals";
  free(in);
  free(cbuf);
  free(dbuf);
  free(head);
  free(prev);
  for (unsigned i = 0; i < VOCAB; i++)
    free(voc.word[i]);
  uint64_t d = BENCH_FNV_BASIS;
  uint64_t vals[3] = {total, ctotal, h};
  for (int k = 0; k < 3; k++)
    d = bench_fnv1a(d, &vals[k], sizeof vals[k]);
  return bench_report(fail, d);
}
/* SPDX-License-Identifier: GPL-3.0-or-later */
