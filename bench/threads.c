/* bench/threads.c - multi-threaded benchmark for the osp benchmark runner.
 *
 * What it is: 4 POSIX threads working through a shared, read-only input (an array of 32-bit
 * keys and a generated text) cut into chunks.  There are three kinds of jobs per chunk:
 *   hash  build an open-addressing hash table of the chunk's keys, then look up the next
 *         chunk's keys in it (hits, distinct keys, probe lengths)
 *   sort  merge-sort a copy of the chunk's keys (recursive, insertion sort below 24) and digest
 *         the sorted order
 *   scan  a character-class state machine over the chunk's text: words, lines, numbers,
 *         occurrences of "the", the longest word
 * Jobs sit in one queue per kind, claimed through atomic counters.  Workers 0, 1 and 2 each
 * drain their "own" kind first and then help with the others; worker 3 takes from the queues
 * in turn.  So the threads run different mixes of work, and which thread runs which job
 * depends on scheduling.  Every job's result goes to its own slot and is also merged into
 * global totals under a mutex (commutative: wrapping sum, xor, counts), so the final result
 * does not depend on scheduling.
 *
 * What it stands for: the multi-threaded C programs users profile (server-style worker pools
 * over shared data); osp keeps its state per thread, and this checks it under real threads.
 *
 * Sizes: small = 6 chunks of 8192 keys / 16 KiB text; default = 100 chunks of 131072 keys /
 * 512 KiB text.
 *
 * How the result is checked: the totals merged under the mutex equal the totals recomputed
 * from the per-job slots; every sort job verified its output is ordered; a single-threaded
 * recomputation of every 4th job (of every job in small) gives the same result as the threaded
 * run; every worker finished.  The checksum digests the per-job results in job order.
 *
 * Usage: threads [small|default].  Prints "threads SIZE ok checksum=HEX" and exits 0, or
 * "threads SIZE FAILED: reason" and exits 1.  Build with -pthread.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define NWORKERS 4
#define NKINDS 3

enum job_kind { JOB_HASH, JOB_SORT, JOB_SCAN };

static const char *const kind_name[NKINDS] = {"hash", "sort", "scan"};

struct input {
  int nchunks;
  size_t keys_per_chunk;
  size_t text_per_chunk;
  uint32_t *keys;
  char *text;
};

struct shared {
  const struct input *in;
  atomic_int next[NKINDS];      /* next unclaimed chunk of each kind */
  uint64_t *result;             /* [kind * nchunks + chunk] */
  pthread_mutex_t lock;
  /* merged under lock */
  uint64_t sum, xr;
  long done[NKINDS];
  int errors;
  int finished_workers;
};

static uint64_t rng_state = 0x243f6a8885a308d3ULL;

/* splitmix64 with a fixed seed (used only before the threads start). */
uint64_t rng_next(void)
{
  return bench_splitmix64(&rng_state);
}

static uint64_t mix64(uint64_t x)
{
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  return x ^ (x >> 33);
}

void make_input(struct input *in, int nchunks, size_t keys, size_t text)
{
  static const char *const words[] = {
    "the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with", "be",
    "by", "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have",
    "an", "they", "you", "were", "their", "one", "all", "we", "can", "her", "has", "there",
    "been", "if", "more", "when", "will", "would", "who", "so", "no", "other", "theory",
    "thermodynamics", "breathe", "lathe", "mother", "Thesaurus", "THE"};
  const size_t nwords = sizeof words / sizeof words[0];
  in->nchunks = nchunks;
  in->keys_per_chunk = keys;
  in->text_per_chunk = text;
  in->keys = bench_xmalloc((size_t)nchunks * keys * sizeof *in->keys);
  in->text = bench_xmalloc((size_t)nchunks * text);
  for (size_t i = 0; i < (size_t)nchunks * keys; i++)
    in->keys[i] = (uint32_t)(rng_next() % (keys * 3)); /* repeats within and across chunks */
  size_t total = (size_t)nchunks * text, pos = 0;
  while (pos < total) {
    uint64_t r = rng_next();
    const char *w;
    char num[16];
    if (r % 17 == 0) {
      snprintf(num, sizeof num, "%u", (unsigned)(r >> 40) % 100000);
      w = num;
    } else {
      w = words[(r >> 8) % nwords];
    }
    while (*w && pos < total)
      in->text[pos++] = *w++;
    if (pos < total)
      in->text[pos++] = (r >> 20) % 11 == 0 ? '\n' : ((r >> 24) % 7 == 0 ? ',' : ' ');
  }
}

/* ---- the three kinds of jobs ----------------------------------------------------------- */

/* Hash the chunk's keys into a table, look up the next chunk's keys. */
uint64_t job_hash(const struct input *in, int chunk)
{
  size_t n = in->keys_per_chunk, cap = 1;
  while (cap < 2 * n)
    cap <<= 1;
  uint32_t *table = bench_xmalloc(cap * sizeof *table);
  memset(table, 0xff, cap * sizeof *table); /* 0xffffffff = empty; keys are smaller */
  const uint32_t *k = in->keys + (size_t)chunk * n;
  uint64_t distinct = 0, probes = 0, hits = 0;
  for (size_t i = 0; i < n; i++) {
    size_t h = (size_t)(mix64(k[i]) & (cap - 1));
    for (;;) {
      probes++;
      if (table[h] == UINT32_MAX) {
        table[h] = k[i];
        distinct++;
        break;
      }
      if (table[h] == k[i])
        break;
      h = (h + 1) & (cap - 1);
    }
  }
  const uint32_t *q = in->keys + (size_t)((chunk + 1) % in->nchunks) * n;
  for (size_t i = 0; i < n; i++) {
    size_t h = (size_t)(mix64(q[i]) & (cap - 1));
    while (table[h] != UINT32_MAX) {
      probes++;
      if (table[h] == q[i]) {
        hits++;
        break;
      }
      h = (h + 1) & (cap - 1);
    }
  }
  free(table);
  return mix64(distinct << 40 ^ hits << 20 ^ probes);
}

static void insertion_sort(uint32_t *v, size_t n)
{
  for (size_t i = 1; i < n; i++) {
    uint32_t x = v[i];
    size_t j = i;
    while (j > 0 && v[j - 1] > x) {
      v[j] = v[j - 1];
      j--;
    }
    v[j] = x;
  }
}

/* Sort v[0..n) using tmp[0..n). */
void merge_sort(uint32_t *v, uint32_t *tmp, size_t n)
{
  if (n < 24) {
    insertion_sort(v, n);
    return;
  }
  size_t h = n / 2;
  merge_sort(v, tmp, h);
  merge_sort(v + h, tmp + h, n - h);
  if (v[h - 1] <= v[h])
    return; /* already in order */
  size_t i = 0, j = h, o = 0;
  while (i < h && j < n)
    tmp[o++] = v[j] < v[i] ? v[j++] : v[i++];
  while (i < h)
    tmp[o++] = v[i++];
  while (j < n)
    tmp[o++] = v[j++];
  memcpy(v, tmp, n * sizeof *v);
}

/* Sort a copy of the chunk's keys; *bad is set when the output is not ordered. */
uint64_t job_sort(const struct input *in, int chunk, int *bad)
{
  size_t n = in->keys_per_chunk;
  uint32_t *v = bench_xmalloc(n * sizeof *v), *tmp = bench_xmalloc(n * sizeof *tmp);
  memcpy(v, in->keys + (size_t)chunk * n, n * sizeof *v);
  merge_sort(v, tmp, n);
  uint64_t d = 0, runs = 1;
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && v[i] < v[i - 1])
      *bad = 1;
    if (i > 0 && v[i] != v[i - 1])
      runs++;
    d += (uint64_t)v[i] * (i + 1);
  }
  free(v);
  free(tmp);
  return mix64(d ^ runs << 48);
}

enum char_class { CC_SPACE, CC_NEWLINE, CC_ALPHA, CC_DIGIT, CC_PUNCT };

static enum char_class classify(char c)
{
  if (c == '\n')
    return CC_NEWLINE;
  if (c == ' ' || c == '\t')
    return CC_SPACE;
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
    return CC_ALPHA;
  if (c >= '0' && c <= '9')
    return CC_DIGIT;
  return CC_PUNCT;
}

/* Words, lines, numbers, case-insensitive "the" anywhere, the longest word. */
uint64_t job_scan(const struct input *in, int chunk)
{
  const char *t = in->text + (size_t)chunk * in->text_per_chunk;
  size_t n = in->text_per_chunk;
  uint64_t words = 0, lines = 0, numbers = 0, the = 0, longest = 0, cur = 0;
  int in_word = 0, in_num = 0, m = 0; /* m: how much of "the" matched */
  for (size_t i = 0; i < n; i++) {
    char c = t[i];
    char lc = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
    switch (m) {
    case 0: m = lc == 't'; break;
    case 1: m = lc == 'h' ? 2 : lc == 't'; break;
    default:
      if (lc == 'e')
        the++;
      m = lc == 't';
      break;
    }
    switch (classify(c)) {
    case CC_ALPHA:
      if (!in_word) {
        words++;
        in_word = 1;
        cur = 0;
      }
      cur++;
      in_num = 0;
      break;
    case CC_DIGIT:
      if (!in_num && !in_word) {
        numbers++;
        in_num = 1;
      }
      break;
    case CC_NEWLINE:
      lines++;
      /* fall through */
    case CC_SPACE:
    case CC_PUNCT:
      if (in_word && cur > longest)
        longest = cur;
      in_word = 0;
      in_num = 0;
      break;
    }
  }
  if (in_word && cur > longest)
    longest = cur;
  return mix64(words << 44 ^ lines << 32 ^ numbers << 20 ^ the << 6 ^ longest);
}

uint64_t run_job(const struct input *in, int kind, int chunk, int *bad)
{
  switch (kind) {
  case JOB_HASH:
    return job_hash(in, chunk);
  case JOB_SORT:
    return job_sort(in, chunk, bad);
  default:
    return job_scan(in, chunk);
  }
}

/* ---- workers --------------------------------------------------------------------------- */

struct worker {
  int id;
  struct shared *sh;
  long jobs[NKINDS];
};

/* Claim a chunk of the kind; -1 when that queue is empty. */
static int claim(struct shared *sh, int kind)
{
  int c = atomic_fetch_add(&sh->next[kind], 1);
  return c < sh->in->nchunks ? c : -1;
}

void *worker_main(void *arg)
{
  struct worker *w = arg;
  struct shared *sh = w->sh;
  int turn = w->id;
  for (;;) {
    int kind = -1, chunk = -1;
    if (w->id < NKINDS) { /* own kind first, then the others */
      for (int k = 0; k < NKINDS && chunk < 0; k++) {
        kind = (w->id + k) % NKINDS;
        chunk = claim(sh, kind);
      }
    } else { /* round robin */
      for (int k = 0; k < NKINDS && chunk < 0; k++) {
        kind = turn++ % NKINDS;
        chunk = claim(sh, kind);
      }
    }
    if (chunk < 0)
      break;
    int bad = 0;
    uint64_t r = run_job(sh->in, kind, chunk, &bad);
    sh->result[(size_t)kind * sh->in->nchunks + chunk] = r;
    w->jobs[kind]++;
    pthread_mutex_lock(&sh->lock);
    sh->sum += r;
    sh->xr ^= mix64(r + (uint64_t)kind);
    sh->done[kind]++;
    sh->errors += bad;
    pthread_mutex_unlock(&sh->lock);
  }
  pthread_mutex_lock(&sh->lock);
  sh->finished_workers++;
  pthread_mutex_unlock(&sh->lock);
  return NULL;
}

int main(int argc, char **argv)
{
  int small = bench_init(argc, argv, "threads");
  int nchunks = small ? 6 : 100;
  struct input in;
  make_input(&in, nchunks, small ? 8192 : 131072, small ? 16384 : 524288);

  struct shared sh;
  memset(&sh, 0, sizeof sh);
  sh.in = &in;
  for (int k = 0; k < NKINDS; k++)
    atomic_init(&sh.next[k], 0);
  size_t njobs = (size_t)NKINDS * nchunks;
  sh.result = bench_xmalloc(njobs * sizeof *sh.result);
  pthread_mutex_init(&sh.lock, NULL);

  pthread_t tid[NWORKERS];
  struct worker w[NWORKERS];
  for (int i = 0; i < NWORKERS; i++) {
    memset(&w[i], 0, sizeof w[i]);
    w[i].id = i;
    w[i].sh = &sh;
    if (pthread_create(&tid[i], NULL, worker_main, &w[i]) != 0) {
      fprintf(stderr, "threads: pthread_create failed\n");
      return 3;
    }
  }
  for (int i = 0; i < NWORKERS; i++)
    pthread_join(tid[i], NULL);
  pthread_mutex_destroy(&sh.lock);

  /* Checks. */
  const char *fail = NULL;
  char why[160];
  uint64_t sum = 0, xr = 0, digest = BENCH_FNV_BASIS;
  for (int k = 0; k < NKINDS; k++)
    for (int c = 0; c < nchunks; c++) {
      uint64_t r = sh.result[(size_t)k * nchunks + c];
      sum += r;
      xr ^= mix64(r + (uint64_t)k);
      digest = bench_fnv1a_u64(digest, r);
    }
  if (sh.finished_workers != NWORKERS)
    fail = "not every worker finished";
  else if (sh.errors)
    fail = "a sort job produced unordered output";
  for (int k = 0; k < NKINDS && !fail; k++)
    if (sh.done[k] != nchunks) {
      snprintf(why, sizeof why, "%ld %s jobs done, expected %d", sh.done[k], kind_name[k],
               nchunks);
      fail = why;
    }
  if (!fail && (sum != sh.sum || xr != sh.xr))
    fail = "merged totals differ from the per-job results";
  for (size_t j = 0; j < njobs && !fail; j += small ? 1 : 4) {
    int kind = (int)(j / (size_t)nchunks), chunk = (int)(j % (size_t)nchunks), bad = 0;
    uint64_t r = run_job(&in, kind, chunk, &bad);
    if (r != sh.result[j] || bad) {
      snprintf(why, sizeof why, "%s job on chunk %d differs from the single-threaded rerun",
               kind_name[kind], chunk);
      fail = why;
    }
  }
  free(sh.result);
  free(in.keys);
  free(in.text);
  return bench_report(fail, digest);
}
/* SPDX-License-Identifier: GPL-3.0-or-later */
