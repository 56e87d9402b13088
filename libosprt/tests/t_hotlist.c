/* SPDX-License-Identifier: MIT */
/* t_hotlist.c - tests of the hot-list (hotlist.h, hotlist.c).
 *
 * The library's hl_* are tested as built.  A second copy of hotlist.c is
 * compiled into this file with HL_TEST_WEAK_HASH (every sequence of a
 * length gets the same hash) and its entry points renamed weak_hl_*: it
 * proves that SEQUENCE and ROTATION never merge different sequences on a
 * hash collision, and it gives access to the static helpers (binomial
 * sampler, least rotation) for direct checks.
 *
 *   t_hotlist          run the tests (make check)
 *   t_hotlist bench    micro-benchmark: ns per offer and per offered block
 *                      for lengths 2..1024 at a 64 KiB bound (not a test)
 *
 * Every random stream comes from a fixed seed.
 */
#include "testutil.h"
#include "collect/hotlist.h"

#include <math.h>
#include <pthread.h>
#include <time.h>

#define hl_create weak_hl_create
#define hl_destroy weak_hl_destroy
#define hl_offer weak_hl_offer
#define hl_offer_passed weak_hl_offer_passed
#define hl_admit_cut weak_hl_admit_cut
#define hl_reset weak_hl_reset
#define hl_foreach weak_hl_foreach
#define hl_get_stats weak_hl_get_stats
#define HL_TEST_WEAK_HASH 1
/* hotlist.h was included above under the real names: declare the one
   renamed function hotlist.c calls before defining it. */
void hl_offer_passed (struct hotlist *h, const uint32_t *blocks,
                      uint32_t len, uint64_t cut);
#include "collect/hotlist.c"
#undef hl_create
#undef hl_destroy
#undef hl_offer
#undef hl_offer_passed
#undef hl_admit_cut
#undef hl_reset
#undef hl_foreach
#undef hl_get_stats

/* ---- helpers ------------------------------------------------------------- */

static uint64_t
trng (uint64_t *s) /* splitmix64: the tests' own streams */
{
  uint64_t z = (*s += UINT64_C (0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

static double
tunif (uint64_t *s)
{
  return (double) (trng (s) >> 11) * 0x1.0p-53;
}

/* A pool of N test sequences; sequence i starts with id i (so an item maps
   back to its pool index under SEQUENCE), the rest is random. */
struct pool
{
  uint32_t n;
  uint32_t *len;
  uint32_t **seq;
  double *cdf; /* Zipf(s) over the pool, for zipf_pick */
};

static void
pool_init (struct pool *p, uint32_t n, uint32_t (*lenfn) (uint32_t i),
           double zipf_s, uint64_t seed)
{
  p->n = n;
  p->len = calloc (n, sizeof *p->len);
  p->seq = calloc (n, sizeof *p->seq);
  p->cdf = calloc (n, sizeof *p->cdf);
  if (!p->len || !p->seq || !p->cdf)
    abort ();
  double sum = 0;
  for (uint32_t i = 0; i < n; i++)
    {
      p->len[i] = lenfn (i);
      p->seq[i] = malloc ((size_t) p->len[i] * 4);
      if (!p->seq[i])
        abort ();
      p->seq[i][0] = i;
      for (uint32_t k = 1; k < p->len[i]; k++)
        p->seq[i][k] = (uint32_t) trng (&seed);
      double w = pow (i + 1.0, -zipf_s);
      sum += w;
      p->cdf[i] = sum;
    }
  for (uint32_t i = 0; i < n; i++)
    p->cdf[i] /= sum;
}

static uint32_t
zipf_pick (const struct pool *p, uint64_t *s)
{
  double u = tunif (s);
  uint32_t lo = 0, hi = p->n - 1;
  while (lo < hi)
    {
      uint32_t mid = (lo + hi) / 2;
      if (p->cdf[mid] < u)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
pool_free (struct pool *p)
{
  for (uint32_t i = 0; i < p->n; i++)
    free (p->seq[i]);
  free (p->seq);
  free (p->len);
  free (p->cdf);
}

static uint32_t
len_pow2 (uint32_t i) /* 2, 4, ..., 1024 */
{
  return 2u << (i % 10);
}

static uint32_t
len_2_64 (uint32_t i)
{
  return 2 + (i * 7919u) % 63;
}

static uint32_t
len_4 (uint32_t i)
{
  (void) i;
  return 4;
}

/* hl_foreach collector: count per pool index (blocks[0]); checks that the
   stored sequence is the pool's. */
struct collect
{
  const struct pool *p;
  uint64_t *count, *error;
  uint64_t items, sum;
  int bad;
};

static void
collect_fn (const struct hl_item *it, void *arg)
{
  struct collect *c = arg;
  c->items++;
  c->sum += it->count;
  uint32_t i = it->blocks[0];
  if (i >= c->p->n || it->len != c->p->len[i]
      || memcmp (it->blocks, c->p->seq[i], (size_t) it->len * 4) != 0
      || c->count[i] != 0)
    {
      c->bad++;
      return;
    }
  c->count[i] = it->count;
  c->error[i] = it->error;
}

static void
collect (struct hotlist *h, const struct pool *p, struct collect *c)
{
  memset (c, 0, sizeof *c);
  c->p = p;
  c->count = calloc (p->n, sizeof *c->count);
  c->error = calloc (p->n, sizeof *c->error);
  if (!c->count || !c->error)
    abort ();
  hl_foreach (h, collect_fn, c);
}

static void
collect_free (struct collect *c)
{
  free (c->count);
  free (c->error);
}

static struct hotlist *
make_gain (size_t bytes, uint32_t max_len, enum hl_policy pol,
           enum hl_encoding enc, uint64_t seed, uint32_t max_gain)
{
  struct hl_config c = { .mem_bytes = bytes, .max_len = max_len,
                         .policy = pol, .encoding = enc, .seed = seed,
                         .max_gain = max_gain };
  struct hotlist *h = hl_create (&c);
  if (h == NULL)
    {
      perror ("hl_create");
      exit (2);
    }
  return h;
}

static struct hotlist *
make (size_t bytes, uint32_t max_len, enum hl_policy pol,
      enum hl_encoding enc, uint64_t seed)
{
  return make_gain (bytes, max_len, pol, enc, seed, 0);
}

/* ---- 0. the helpers of hotlist.c ----------------------------------------- */

static void
test_math (void)
{
  /* log k! continuity at the table / Stirling switch: log 16! */
  double lf = hl_log_fact (16) - 30.671860106080672;
  CHECK (lf < 1e-12 && lf > -1e-12);

  /* Binomial: mean and variance within 5 sigma / 10%, for both methods
     and p on either side of 1/2. */
  struct hotlist *h = weak_hl_create (&(struct hl_config){
      .mem_bytes = 4096, .max_len = 8, .seed = 42 });
  static const struct { uint64_t n; double p; } cases[] = {
    { 1, 0.8 }, { 5, 0.2 }, { 40, 0.2 }, { 49, 0.8 }, { 60, 0.5 },
    { 1000, 0.8 }, { 1000000, 0.8 }, { UINT64_C (1000000000000), 0.2 },
    { 100000, 0.0001 }, { 3, 0.999 },
  };
  const int draws = 20000;
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    {
      double n = (double) cases[c].n, p = cases[c].p;
      double sum = 0, sum2 = 0, mu = n * p, var = n * p * (1 - p);
      for (int i = 0; i < draws; i++)
        {
          uint64_t k = hl_binomial (h, cases[c].n, p);
          CHECK (k <= cases[c].n);
          double d = (double) k - mu;
          sum += d;
          sum2 += d * d;
        }
      /* the variance estimate is noisier when few draws leave the mode */
      double mean_err = sum / draws, v = sum2 / draws;
      double rare = n * (p < 0.5 ? p : 1 - p) * draws;
      double tol = 0.1 + 4 / sqrt (rare);
      if (!(mean_err * mean_err < 25 * var / draws)
          || !(v > (1 - tol) * var && v < (1 + tol) * var))
        {
          fprintf (stderr, "binomial(%g, %g): mean off by %g, var %g vs %g\n",
                   n, p, mean_err, v, var);
          osp_test_failures++;
        }
    }
  /* The whole distribution of Binomial(40, 0.2) (inversion) and
     Binomial(200, 0.3) (BTRS): chi-square over cells with >= 20 expected,
     the tails pooled; the bound is far above the 99.9% quantile. */
  static const struct { uint64_t n; double p; } chi[] = { { 40, 0.2 },
                                                          { 200, 0.3 } };
  for (size_t c = 0; c < 2; c++)
    {
      uint64_t n = chi[c].n;
      double p = chi[c].p;
      const int N = 200000;
      uint64_t *obs = calloc (n + 1, sizeof *obs);
      double *pmf = calloc (n + 1, sizeof *pmf);
      for (int i = 0; i < N; i++)
        obs[hl_binomial (h, n, p)]++;
      /* pmf by the recurrence from k = 0: q^n, then * (n-k+1)p / (k q) */
      double q = 1 - p, pk = 1;
      for (uint64_t i = 0; i < n; i++)
        pk *= q;
      for (uint64_t k = 0; k <= n; k++)
        {
          pmf[k] = pk;
          pk *= (double) (n - k) * p / ((double) (k + 1) * q);
        }
      double chi2 = 0, eacc = 0, oacc = 0;
      int cells = 0;
      for (uint64_t k = 0; k <= n; k++)
        {
          eacc += pmf[k] * N;
          oacc += (double) obs[k];
          if (eacc >= 20 || k == n)
            {
              chi2 += (oacc - eacc) * (oacc - eacc) / eacc;
              cells++;
              eacc = oacc = 0;
            }
        }
      /* df = cells - 1; mean df, sd sqrt(2 df): allow df + 6 sd */
      double df = cells - 1;
      if (!(chi2 < df + 6 * sqrt (2 * df)))
        {
          fprintf (stderr, "binomial(%llu, %g): chi2 %g over %d cells\n",
                   (unsigned long long) n, p, chi2, cells);
          osp_test_failures++;
        }
      free (obs);
      free (pmf);
    }
  weak_hl_destroy (h);

  /* Least rotation against brute force, small alphabet (many ties). */
  uint64_t seed = 7;
  uint32_t a[12];
  for (int t = 0; t < 20000; t++)
    {
      uint32_t n = 1 + (uint32_t) (trng (&seed) % 12);
      for (uint32_t i = 0; i < n; i++)
        a[i] = (uint32_t) (trng (&seed) % 3);
      uint32_t best = 0;
      for (uint32_t r = 1; r < n; r++)
        for (uint32_t k = 0; k < n; k++)
          {
            uint32_t x = a[(r + k) % n], y = a[(best + k) % n];
            if (x != y)
              {
                if (x < y)
                  best = r;
                break;
              }
          }
      uint32_t got = hl_least_rotation (a, n);
      int same = 1;
      for (uint32_t k = 0; k < n; k++)
        same &= a[(got + k) % n] == a[(best + k) % n];
      CHECK (got < n && same);
    }
}

/* ---- 1. exact below the bound --------------------------------------------- */

static void
test_exact (void)
{
  struct pool p;
  pool_init (&p, 3000, len_pow2, 1.0, 1);
  for (int pol = HL_CONCISE; pol <= HL_SPACE_SAVING; pol++)
    {
      struct hotlist *h = make (8u << 20, 1024, pol, HL_ENC_SEQUENCE, 11);
      uint64_t *truth = calloc (p.n, sizeof *truth);
      uint64_t s = 99, distinct = 0;
      const uint32_t offers = 100000;
      for (uint32_t t = 0; t < offers; t++)
        {
          uint32_t i = zipf_pick (&p, &s);
          distinct += truth[i]++ == 0;
          hl_offer (h, p.seq[i], p.len[i]);
        }
      struct hl_stats st;
      hl_get_stats (h, &st);
      CHECK (st.threshold == 1);
      CHECK_EQ (st.resamples, 0);
      CHECK_EQ (st.evictions, 0);
      CHECK_EQ (st.offered, offers);
      CHECK_EQ (st.admitted, offers);
      CHECK_EQ (st.sample_size, offers);
      CHECK_EQ (st.entries, distinct);
      CHECK (st.mem_peak <= st.mem_bytes && st.mem_used <= st.mem_peak);
      struct collect c;
      collect (h, &p, &c);
      CHECK_EQ (c.bad, 0);
      CHECK_EQ (c.items, distinct);
      CHECK_EQ (c.sum, offers);
      int wrong = 0;
      for (uint32_t i = 0; i < p.n; i++)
        wrong += c.count[i] != truth[i] || c.error[i] != 0;
      CHECK_EQ (wrong, 0);
      collect_free (&c);

      hl_reset (h);
      hl_get_stats (h, &st);
      CHECK_EQ (st.offered, 0);
      CHECK_EQ (st.entries, 0);
      CHECK_EQ (st.sample_size, 0);
      CHECK (st.threshold == 1);
      hl_offer (h, p.seq[5], p.len[5]);
      hl_get_stats (h, &st);
      CHECK_EQ (st.entries, 1);
      free (truth);
      hl_destroy (h);
    }
  pool_free (&p);
}

/* ---- 2. the memory bound ------------------------------------------------- */

static void
test_bound (void)
{
  struct hl_config bad = { .mem_bytes = HL_MIN_BYTES - 1, .max_len = 4 };
  errno = 0;
  CHECK (hl_create (&bad) == NULL && errno == EINVAL);
  bad.mem_bytes = HL_MIN_BYTES;
  bad.max_len = 0;
  CHECK (hl_create (&bad) == NULL && errno == EINVAL);

  uint32_t *big = calloc ((1 << 16) + 1, 4);
  if (!big)
    abort ();
  for (uint32_t i = 0; i < 1 << 16; i++)
    big[i] = i * 2654435761u;
  for (size_t bytes = 4096; bytes <= 65536; bytes *= 2)
    for (int pol = HL_CONCISE; pol <= HL_SPACE_SAVING; pol++)
      {
        struct hotlist *h = make (bytes, 1 << 16, pol, HL_ENC_SEQUENCE,
                                  bytes + (size_t) pol);
        uint64_t s = bytes;
        struct hl_stats st;
        int over = 0;
        /* phase 1: short distinct sequences fill the table */
        for (int t = 0; t < 20000; t++)
          {
            big[0] = (uint32_t) t;
            hl_offer (h, big, 2);
            hl_get_stats (h, &st);
            over += st.mem_peak > st.mem_bytes || st.mem_used > st.mem_peak;
          }
        hl_get_stats (h, &st);
        uint64_t short_entries = st.entries;
        CHECK (st.evictions > 0);
        /* phase 2: long ones, 4 .. bytes/16 ids (a quarter of the bound) */
        uint32_t kmax = 0;
        while ((4u << (kmax + 1)) <= bytes / 16)
          kmax++;
        for (int t = 0; t < 4000; t++)
          {
            uint32_t len = 4u << (trng (&s) % (kmax + 1));
            big[0] = 100000 + (uint32_t) t;
            hl_offer (h, big, len);
            hl_get_stats (h, &st);
            over += st.mem_peak > st.mem_bytes || st.mem_used > st.mem_peak;
          }
        CHECK_EQ (over, 0);
        hl_get_stats (h, &st);
        CHECK (st.entries < short_entries);
        CHECK_EQ (st.too_long, 0);
        CHECK (pol == HL_CONCISE ? st.resamples > 0 && st.threshold > 1
                                 : st.threshold == 1 && st.resamples == 0);
        /* sizes agree with the items */
        struct pool none = { .n = 0 };
        struct collect c;
        memset (&c, 0, sizeof c);
        c.p = &none;
        hl_foreach (h, collect_fn, &c);
        CHECK_EQ (c.items, st.entries);
        CHECK_EQ (c.sum, st.sample_size);
        /* a sequence larger than the whole bound, and one over max_len */
        uint64_t before = st.entries;
        hl_offer (h, big, (uint32_t) (bytes / 4));
        hl_offer (h, big, (1 << 16) + 1); /* > max_len */
        hl_get_stats (h, &st);
        CHECK_EQ (st.too_long, 2);
        CHECK_EQ (st.entries, before);
        CHECK (st.mem_peak <= st.mem_bytes);
        hl_destroy (h);
      }
  /* max_len is enforced too */
  struct hotlist *h = make (4096, 8, HL_CONCISE, HL_ENC_SEQUENCE, 1);
  hl_offer (h, big, 9);
  hl_offer (h, big, 8);
  struct hl_stats st;
  hl_get_stats (h, &st);
  CHECK_EQ (st.too_long, 1);
  CHECK_EQ (st.entries, 1);
  hl_destroy (h);
  free (big);
}

struct find
{
  uint32_t len;
  const uint32_t *blocks;
  uint64_t count;
};

static void
find_fn (const struct hl_item *it, void *arg)
{
  struct find *f = arg;
  if (it->len == f->len
      && memcmp (it->blocks, f->blocks, (size_t) it->len * 4) == 0)
    f->count = it->count;
}

/* ---- 3. concise samples: unbiased, intervals cover ------------------------ */

/* A caller that flips the admission coin itself (hl_admit_cut) when an
   offer arrives, as the sampler does at a sample's first block, and hands
   over what passed (hl_offer_passed) in batches of up to 64, as the
   sampler's queue does, so that raises fall between a coin and its offer.
   The pending offers point into the test's pool (or at the target). */
struct precoin
{
  struct hotlist *h;
  uint64_t s;         /* the caller's coins */
  uint64_t declined;  /* turned away by the caller's coin */
  uint32_t n;
  const uint32_t *blocks[64];
  uint32_t len[64];
  uint64_t cut[64];
};

static void
precoin_flush (struct precoin *q)
{
  for (uint32_t i = 0; i < q->n; i++)
    hl_offer_passed (q->h, q->blocks[i], q->len[i], q->cut[i]);
  q->n = 0;
}

static void
precoin_offer (struct precoin *q, const uint32_t *blocks, uint32_t len)
{
  uint64_t cut = hl_admit_cut (q->h);
  if (cut != UINT64_MAX && trng (&q->s) >= cut)
    {
      q->declined++;
      return;
    }
  q->blocks[q->n] = blocks;
  q->len[q->n] = len;
  q->cut[q->n++] = cut;
  if (q->n == 64)
    precoin_flush (q);
}

/* What coverage () found over its seeds. */
struct cover
{
  int seeds;
  double n;                       /* the target's offers, N */
  double mean, mean_abs;          /* of the estimates of N, |errors| */
  double mean_tau, mean_count;    /* of the thresholds, the target's counts */
  double rate;                    /* of the seeds whose 95% interval holds N */
  uint64_t min_res;               /* the fewest raises of a seed */
  uint64_t largest;               /* the largest sample of a seed */
  uint64_t most_used, most_peak;  /* the largest mem_used, mem_peak */
  uint64_t mem_bytes;             /* the hot-lists' bound */
};

/* The estimator's coverage under policy POL: 200 hot-lists of 64 KiB (one
   a seed), each offered 100000 offers of which every 4th is one target
   sequence of 4 ids, N = 25000 of them, and the rest Zipf noise from P.
   Each seed estimates N from the target's count c and the threshold tau,
   with a 95% interval:
     HL_CONCISE   c * tau, +/- 1.96 sqrt (c) tau (each offer kept with
                  probability 1/tau);
     HL_COUNTING  c + tau - 1, between c plus the 2.5% and the 97.5%
                  quantiles of the Geometric(1/tau) offers missed before
                  the target got in.
   GAIN is the hot-lists' gain limit (0: none); PRECOIN (concise only):
   the offers go through a caller that flips the coin itself (precoin). */
static void
coverage (enum hl_policy pol, uint32_t gain, int precoin,
          const struct pool *p, struct cover *r)
{
  const uint32_t target[4] = { 0xdead, 0xbeef, 1, 2 };
  const int seeds = 200, offers = 100000;
  const double N = offers / 4;
  int covered = 0;
  double sum_est = 0, sum_abs = 0, sum_tau = 0, sum_count = 0;
  *r = (struct cover) { .seeds = seeds, .n = N, .min_res = UINT64_MAX };
  for (int sd = 0; sd < seeds; sd++)
    {
      struct hotlist *h = make_gain (65536, 64, pol, HL_ENC_SEQUENCE,
                                     1000 + (uint64_t) sd, gain);
      if (pol == HL_COUNTING)
        CHECK_EQ (hl_admit_cut (h), UINT64_MAX);
      uint64_t s = 5000 + (uint64_t) sd;
      struct precoin q = { .h = h, .s = 7000 + (uint64_t) sd };
      for (int t = 0; t < offers; t++)
        {
          const uint32_t *b = target;
          uint32_t len = 4;
          if (t % 4 != 0)
            {
              uint32_t i = zipf_pick (p, &s);
              b = p->seq[i];
              len = p->len[i];
            }
          if (precoin)
            precoin_offer (&q, b, len);
          else
            hl_offer (h, b, len);
        }
      precoin_flush (&q);
      struct hl_stats st;
      hl_get_stats (h, &st);
      if (pol == HL_COUNTING)
        CHECK_EQ (hl_admit_cut (h), UINT64_MAX); /* every offer is seen */
      if (precoin)
        {
          CHECK_EQ (st.offered + q.declined, (uint64_t) offers);
          CHECK (q.declined > st.offered);
          CHECK (st.admitted < st.offered); /* raises between coin and offer */
        }
      if (st.resamples < r->min_res)
        r->min_res = st.resamples;
      if (st.sample_size > r->largest)
        r->largest = st.sample_size;
      if (st.mem_used > r->most_used)
        r->most_used = st.mem_used;
      if (st.mem_peak > r->most_peak)
        r->most_peak = st.mem_peak;
      r->mem_bytes = st.mem_bytes;
      struct find f = { 4, target, 0 };
      hl_foreach (h, find_fn, &f);
      double c = (double) f.count, tau = st.threshold;
      double est;
      if (pol == HL_COUNTING)
        {
          double lo = tau > 1 ? log (0.975) / log1p (-1 / tau) : 0;
          double hi = tau > 1 ? log (0.025) / log1p (-1 / tau) : 0;
          est = c + tau - 1;
          covered += c + floor (lo) <= N && N <= c + ceil (hi);
        }
      else
        {
          double half = 1.96 * sqrt (c) * tau;
          est = c * tau;
          covered += est - half <= N && N <= est + half;
        }
      sum_est += est;
      sum_abs += fabs (est - N);
      sum_tau += tau;
      sum_count += c;
      hl_destroy (h);
    }
  r->mean = sum_est / seeds;
  r->mean_abs = sum_abs / seeds;
  r->mean_tau = sum_tau / seeds;
  r->mean_count = sum_count / seeds;
  r->rate = (double) covered / seeds;
}

/* Concise samples.  MODE 0: every offer through hl_offer; 1: through a
   precoin caller; 2: the gain limit. */
static void
test_unbiased (int mode)
{
  /* The noise: Zipf over 30000 sequences of 2..64 ids, enough to force
     several raises in 64 KiB.  Mode 2 (the gain limit): 50 sequences of
     4 ids, which never fill the bound, and max_gain = 2 raises the
     threshold instead: m <= 64 KiB / 24 bytes a record. */
  struct pool p;
  const uint64_t most = 2 * (65536 / 24 + 1);
  if (mode == 2)
    pool_init (&p, 50, len_4, 1.0, 3);
  else
    pool_init (&p, 30000, len_2_64, 1.0, 3);
  struct cover r;
  coverage (HL_CONCISE, mode == 2 ? 2 : 0, mode == 1, &p, &r);
  printf ("unbiased (%s): %d seeds, N = %.0f, mean count*tau = %.1f (%+.2f%%), "
          "mean tau %.1f, mean count %.1f, >= %llu raises, 95%% interval "
          "coverage %.1f%%\n",
          mode == 2 ? "gain limit" : mode ? "caller's coin" : "hl_offer",
          r.seeds, r.n, r.mean, 100 * (r.mean - r.n) / r.n, r.mean_tau,
          r.mean_count, (unsigned long long) r.min_res, 100 * r.rate);
  CHECK (r.min_res >= 3);
  if (mode == 2)
    {
      printf ("gain limit: largest sample %llu points (at most %llu)\n",
              (unsigned long long) r.largest, (unsigned long long) most);
      CHECK (r.largest <= most);
      CHECK (r.most_used < r.mem_bytes / 2); /* raised by the gain */
    }
  CHECK (r.mean > 0.98 * r.n && r.mean < 1.02 * r.n);
  CHECK (r.rate >= 0.90 && r.rate <= 0.99);
  pool_free (&p);
}

/* Counting samples: the same hot target among Zipf noise that fills the
   bound.  count + tau - 1 estimates its offers, N, without bias; N lies
   in the interval about 95% of the time; and the error is far below
   concise samples' (which keep 1/tau of the points).  Below the bound
   every count is exact. */
static void
test_counting (void)
{
  struct pool p;
  pool_init (&p, 30000, len_2_64, 1.0, 3);
  struct cover r;
  coverage (HL_COUNTING, 2, 0, &p, &r);
  printf ("counting: %d seeds, N = %.0f, mean count + tau - 1 = %.1f "
          "(%+.2f%%), mean |error| %.2f%%, mean tau %.1f, >= %llu raises, "
          "95%% interval coverage %.1f%%\n",
          r.seeds, r.n, r.mean, 100 * (r.mean - r.n) / r.n,
          100 * r.mean_abs / r.n, r.mean_tau, (unsigned long long) r.min_res,
          100 * r.rate);
  CHECK (r.most_peak <= r.mem_bytes);
  CHECK (r.min_res >= 3);
  CHECK (r.mean > 0.995 * r.n && r.mean < 1.005 * r.n);
  CHECK (r.mean_abs / r.n < 0.01); /* concise: ~6% here */
  CHECK (r.rate >= 0.90 && r.rate <= 0.99);

  /* Below the bound: tau stays 1 and every count is the exact number of
     offers. */
  struct hotlist *h = make (65536, 64, HL_COUNTING, HL_ENC_SEQUENCE, 9);
  uint32_t a[2] = { 1, 2 }, b[3] = { 3, 4, 5 };
  for (int t = 0; t < 3000; t++)
    hl_offer (h, t % 3 ? a : b, t % 3 ? 2 : 3);
  struct find fa = { 2, a, 0 }, fb = { 3, b, 0 };
  hl_foreach (h, find_fn, &fa);
  hl_foreach (h, find_fn, &fb);
  CHECK_EQ (fa.count, 2000);
  CHECK_EQ (fb.count, 1000);
  struct hl_stats st;
  hl_get_stats (h, &st);
  CHECK (st.threshold == 1);
  hl_destroy (h);
  pool_free (&p);
}

/* The gain limit counts entries when the table holds more of them than
   m, the records of max_len that fit (a table of several lengths): 64 KiB
   holds about 220 records of 64 ids, but a thousand of 4. */
static void
test_gain_entries (void)
{
  struct pool p;
  pool_init (&p, 1000, len_4, 0.5, 11);
  struct hotlist *h = make_gain (65536, 64, HL_CONCISE, HL_ENC_SEQUENCE, 5, 2);
  uint64_t s = 17, most = 0;
  struct hl_stats st;
  for (int t = 0; t < 200000; t++)
    {
      uint32_t i = zipf_pick (&p, &s);
      hl_offer (h, p.seq[i], p.len[i]);
      hl_get_stats (h, &st);
      CHECK (st.sample_size <= 2 * (st.entries > 230 ? st.entries : 230) + 1);
      if (st.sample_size > most)
        most = st.sample_size;
    }
  printf ("gain limit by entries: %llu entries, largest sample %llu, "
          "threshold %.3g\n", (unsigned long long) st.entries,
          (unsigned long long) most, st.threshold);
  CHECK (st.threshold > 1);
  CHECK (most > 2 * 230); /* more than max_len's m allows */
  hl_destroy (h);
  pool_free (&p);
}

/* ---- 4. Space-Saving guarantees ----------------------------------------- */

static void
test_space_saving (void)
{
  static uint32_t (*const lens[2]) (uint32_t) = { len_4, len_2_64 };
  for (int l = 0; l < 2; l++)
    {
      struct pool p;
      pool_init (&p, 5000, lens[l], 1.25, 4);
      struct hotlist *h = make (16384, 64, HL_SPACE_SAVING, HL_ENC_SEQUENCE,
                                0);
      uint64_t *truth = calloc (p.n, sizeof *truth);
      uint64_t s = 77;
      const uint32_t offers = 200000;
      for (uint32_t t = 0; t < offers; t++)
        {
          uint32_t i = zipf_pick (&p, &s);
          truth[i]++;
          hl_offer (h, p.seq[i], p.len[i]);
        }
      struct hl_stats st;
      hl_get_stats (h, &st);
      CHECK (st.evictions > 0);
      if (l == 0) /* equal sizes: Metwally's invariant sum = stream */
        CHECK_EQ (st.sample_size, offers);
      struct collect c;
      collect (h, &p, &c);
      CHECK_EQ (c.bad, 0);
      int broken = 0;
      for (uint32_t i = 0; i < p.n; i++)
        if (c.count[i])
          broken += !(c.count[i] - c.error[i] <= truth[i]
                      && truth[i] <= c.count[i]);
      CHECK_EQ (broken, 0);
      /* the true top-10 (pool order is Zipf rank order, but use truth) */
      int missing = 0;
      for (int k = 0; k < 10; k++)
        {
          uint32_t best = 0;
          for (uint32_t i = 1; i < p.n; i++)
            if (truth[i] > truth[best])
              best = i;
          missing += c.count[best] == 0;
          truth[best] = 0;
        }
      CHECK_EQ (missing, 0);
      printf ("space-saving (%s lengths): %llu entries in 16 KiB, "
              "%llu evictions\n", l ? "2..64" : "4",
              (unsigned long long) st.entries,
              (unsigned long long) st.evictions);
      collect_free (&c);
      free (truth);
      hl_destroy (h);
      pool_free (&p);
    }
}

/* ---- 5. encodings ---------------------------------------------------------- */

static uint64_t
count_of (struct hotlist *h, int weak, const uint32_t *b, uint32_t len)
{
  struct find f = { len, b, 0 };
  if (weak)
    weak_hl_foreach (h, find_fn, &f);
  else
    hl_foreach (h, find_fn, &f);
  return f.count;
}

static uint64_t
entries_of (struct hotlist *h, int weak)
{
  struct hl_stats st;
  if (weak)
    weak_hl_get_stats (h, &st);
  else
    hl_get_stats (h, &st);
  return st.entries;
}

static void
offer_any (struct hotlist *h, int weak, const uint32_t *b, uint32_t len)
{
  if (weak)
    weak_hl_offer (h, b, len);
  else
    hl_offer (h, b, len);
}

static void
test_encodings (void)
{
  struct hl_config c = { .mem_bytes = 1 << 20, .max_len = 16, .seed = 5 };
  for (int weak = 0; weak < 2; weak++)
    {
      /* SEQUENCE: all 24 permutations of 4 ids, and the 256 sequences over
         {0..3} of length 4, never merged even when every hash collides. */
      c.encoding = HL_ENC_SEQUENCE;
      for (int pol = HL_CONCISE; pol <= HL_SPACE_SAVING; pol++)
        {
          c.policy = pol;
          struct hotlist *h = weak ? weak_hl_create (&c) : hl_create (&c);
          for (int rep = 0; rep < 3; rep++)
            for (uint32_t v = 0; v < 256; v++)
              {
                uint32_t b[4] = { v & 3, (v >> 2) & 3, (v >> 4) & 3, v >> 6 };
                offer_any (h, weak, b, 4);
              }
          CHECK_EQ (entries_of (h, weak), 256);
          int wrong = 0;
          for (uint32_t v = 0; v < 256; v++)
            {
              uint32_t b[4] = { v & 3, (v >> 2) & 3, (v >> 4) & 3, v >> 6 };
              wrong += count_of (h, weak, b, 4) != 3;
            }
          CHECK_EQ (wrong, 0);
          if (weak)
            weak_hl_destroy (h);
          else
            hl_destroy (h);
        }

      /* XOR: same length and xor share an entry (permutations, and any
         other sequence with that xor); other lengths do not. */
      c.encoding = HL_ENC_XOR;
      c.policy = HL_CONCISE;
      struct hotlist *h = weak ? weak_hl_create (&c) : hl_create (&c);
      static const uint32_t x1[3] = { 1, 2, 4 }, x2[3] = { 4, 1, 2 },
                            x3[3] = { 2, 4, 1 }, x4[3] = { 7, 0, 0 },
                            x5[3] = { 1, 2, 5 }, x6[4] = { 1, 2, 4, 0 };
      offer_any (h, weak, x1, 3);
      offer_any (h, weak, x2, 3);
      offer_any (h, weak, x3, 3);
      offer_any (h, weak, x4, 3); /* 7 ^ 0 ^ 0 == 1 ^ 2 ^ 4 */
      offer_any (h, weak, x5, 3);
      offer_any (h, weak, x6, 4);
      CHECK_EQ (entries_of (h, weak), 3);
      CHECK_EQ (count_of (h, weak, x1, 3), 4); /* stored: the first seen */
      CHECK_EQ (count_of (h, weak, x5, 3), 1);
      CHECK_EQ (count_of (h, weak, x6, 4), 1);
      if (weak)
        weak_hl_destroy (h);
      else
        hl_destroy (h);

      /* ROTATION: rotations share an entry, stored as the least rotation;
         the reversal and other permutations do not. */
      c.encoding = HL_ENC_ROTATION;
      for (int pol = HL_CONCISE; pol <= HL_SPACE_SAVING; pol++)
        {
          c.policy = pol;
          h = weak ? weak_hl_create (&c) : hl_create (&c);
          static const uint32_t r[4][5] = { { 3, 9, 1, 7, 5 },
                                            { 9, 1, 7, 5, 3 },
                                            { 1, 7, 5, 3, 9 },
                                            { 5, 3, 9, 1, 7 } };
          static const uint32_t least[5] = { 1, 7, 5, 3, 9 },
                                rev[5] = { 1, 9, 3, 5, 7 }, /* 9 3 5 7 1 */
                                perm[5] = { 1, 7, 5, 9, 3 },
                                per1[4] = { 2, 1, 2, 1 },
                                per2[4] = { 1, 2, 1, 2 };
          for (int k = 0; k < 4; k++)
            offer_any (h, weak, r[k], 5);
          offer_any (h, weak, rev, 5);
          offer_any (h, weak, perm, 5);
          offer_any (h, weak, per1, 4);
          offer_any (h, weak, per2, 4);
          CHECK_EQ (entries_of (h, weak), 4);
          CHECK_EQ (count_of (h, weak, least, 5), 4);
          CHECK_EQ (count_of (h, weak, rev, 5), 1);
          CHECK_EQ (count_of (h, weak, perm, 5), 1);
          CHECK_EQ (count_of (h, weak, per2, 4), 2);
          if (weak)
            weak_hl_destroy (h);
          else
            hl_destroy (h);
        }
    }
}

/* ---- 6. threads --------------------------------------------------------------- */

#define NTHREADS 8
#define PER_THREAD 20000

struct tharg
{
  struct hotlist *h;
  const struct pool *p;
  uint64_t seed;
  uint64_t *truth; /* [p->n], this thread's own */
};

static void *
thread_main (void *arg)
{
  struct tharg *a = arg;
  for (int t = 0; t < PER_THREAD; t++)
    {
      uint32_t i = zipf_pick (a->p, &a->seed);
      a->truth[i]++;
      hl_offer (a->h, a->p->seq[i], a->p->len[i]);
      if (t % 5000 == 0)
        {
          struct hl_stats st;
          hl_get_stats (a->h, &st);
        }
    }
  return NULL;
}

static void
test_threads (void)
{
  struct pool p;
  pool_init (&p, 2000, len_2_64, 1.0, 6);
  static const size_t bounds[2] = { 4u << 20, 8192 };
  for (int b = 0; b < 2; b++)
    for (int pol = HL_CONCISE; pol <= HL_SPACE_SAVING; pol++)
      {
        struct hotlist *h = make (bounds[b], 64, pol, HL_ENC_SEQUENCE, 8);
        pthread_t th[NTHREADS];
        struct tharg a[NTHREADS];
        for (int i = 0; i < NTHREADS; i++)
          {
            a[i] = (struct tharg){ h, &p, 100 + (uint64_t) i,
                                   calloc (p.n, sizeof (uint64_t)) };
            if (!a[i].truth
                || pthread_create (&th[i], NULL, thread_main, &a[i]) != 0)
              abort ();
          }
        for (int i = 0; i < NTHREADS; i++)
          pthread_join (th[i], NULL);
        struct hl_stats st;
        hl_get_stats (h, &st);
        CHECK_EQ (st.offered, NTHREADS * PER_THREAD);
        CHECK (st.mem_peak <= st.mem_bytes);
        if (b == 0)
          {
            /* no bound pressure: exact */
            CHECK_EQ (st.sample_size, NTHREADS * PER_THREAD);
            struct collect c;
            collect (h, &p, &c);
            int wrong = 0;
            for (uint32_t i = 0; i < p.n; i++)
              {
                uint64_t t = 0;
                for (int k = 0; k < NTHREADS; k++)
                  t += a[k].truth[i];
                wrong += c.count[i] != t;
              }
            CHECK_EQ (wrong, 0);
            collect_free (&c);
          }
        else
          CHECK (st.evictions > 0);
        for (int i = 0; i < NTHREADS; i++)
          free (a[i].truth);
        hl_destroy (h);
      }
  pool_free (&p);
}

/* ---- 7. micro-benchmark ------------------------------------------------------ */

static double
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec * 1e9 + (double) ts.tv_nsec;
}

static uint32_t bench_len; /* 0: mixed */

/* Fixed, or mixed like the sampler's geometric bias: 2^k with
   probability 2^-k, k = 1..10 (the rest to 1024). */
static uint32_t
len_bench (uint32_t i)
{
  if (bench_len)
    return bench_len;
  uint64_t s = i;
  uint64_t z = trng (&s);
  uint32_t len = 2;
  while (len < 1024 && (z & 1))
    len *= 2, z >>= 1;
  return len;
}

static int
bench (void)
{
  printf ("hot-list micro-benchmark, 64 KiB bound, Zipf(1) over 4096 "
          "sequences per length (mixed: 2^k with probability 2^-k)\n");
  printf ("%-14s %5s %10s %10s %10s %8s %9s %8s\n", "policy", "len",
          "offers", "ns/offer", "ns/block", "tau", "resamples", "entries");
  for (int pol = HL_CONCISE; pol <= HL_SPACE_SAVING; pol++)
    for (bench_len = 2; bench_len <= 2048; bench_len *= 2)
      {
        int mixed = bench_len == 2048;
        if (mixed)
          bench_len = 0;
        struct pool p;
        pool_init (&p, 4096, len_bench, 1.0, 9);
        /* pre-draw the indexes so the loop times only hl_offer */
        uint32_t n = (uint32_t) (40000000 / ((mixed ? 8 : bench_len) + 8));
        uint32_t *idx = malloc ((size_t) n * 4);
        uint64_t s = 1, blocks = 0;
        for (uint32_t t = 0; t < n; t++)
          {
            idx[t] = zipf_pick (&p, &s);
            blocks += p.len[idx[t]];
          }
        struct hotlist *h = make (65536, 1024, pol, HL_ENC_SEQUENCE, 1);
        double t0 = now_ns ();
        for (uint32_t t = 0; t < n; t++)
          hl_offer (h, p.seq[idx[t]], p.len[idx[t]]);
        double dt = now_ns () - t0;
        struct hl_stats st;
        hl_get_stats (h, &st);
        char lbuf[16];
        snprintf (lbuf, sizeof lbuf, mixed ? "mixed" : "%u", bench_len);
        printf ("%-14s %5s %10u %10.1f %10.3f %8.1f %9llu %8llu\n",
                pol == HL_CONCISE ? "concise" : "space-saving", lbuf, n,
                dt / n, dt / blocks, st.threshold,
                (unsigned long long) st.resamples,
                (unsigned long long) st.entries);
        hl_destroy (h);
        free (idx);
        pool_free (&p);
        if (mixed)
          bench_len = 2048;
      }
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "bench") == 0)
    return bench ();
  test_math ();
  test_exact ();
  test_bound ();
  test_unbiased (0);
  test_unbiased (1);
  test_unbiased (2);
  test_gain_entries ();
  test_counting ();
  test_space_saving ();
  test_encodings ();
  test_threads ();
  return osp_test_done ("t_hotlist");
}
