/*
 * sparse.c - sparse matrix-vector multiplication benchmark for osp.
 *
 * Kernel: a pseudo-random N x N sparse matrix is generated as coordinate
 * (row, column, value) triples, converted to compressed sparse row (CSR)
 * form (counting sort by row, insertion sort of each row by column,
 * duplicate entries merged), and then y += A * x is computed repeatedly.
 * This is the SparseMatmult kernel of the Java Grande Forum benchmark
 * suite, section 2 (one of the kernels measured in the evaluation of the
 * OSP paper), written from scratch in C for this project.
 *
 * Sizes:   default  N = 200000, 1200000 triples, 700 products
 *          small    N =  20000,  120000 triples, 100 products
 *
 * Check:   matrix entries are multiples of 1/8 and vector entries multiples
 *          of 1/16 with small numerators, so every sum is exact in double
 *          precision whatever the evaluation order or FMA contraction.
 *          The result must equal, exactly, the number of products times
 *          A * x computed by scattering the original triples (checks the
 *          CSR conversion), and for 32 rows spread over the matrix, the
 *          CSR row expanded into a dense row and multiplied by x (checks
 *          the kernel).  The checksum digests the CSR structure and every
 *          element of y (as an integer count of 1/128ths).
 *
 * Usage:   sparse [small|default]
 * Output:  "sparse SIZE ok checksum=HEX" (exit 0) or
 *          "sparse SIZE FAILED: why" (exit 1); a bad argument gives a usage
 *          line on stderr (exit 2).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static uint64_t rng_state = 0xA0761D6478BD642FULL;

static uint64_t rng_next(void)
{
  return bench_xorshift64s(&rng_state);
}

struct coo {
  int *row, *col;
  double *val;
  long nnz;
};

struct csr {
  int n;
  long nnz;
  long *rowptr;
  int *col;
  double *val;
};

/* Random triples: value k/8 with k in [-64, 64] \ {0}. */
void sparse_generate(struct coo *a, int n)
{
  for (long k = 0; k < a->nnz; k++) {
    a->row[k] = (int)(rng_next() % (uint64_t)n);
    a->col[k] = (int)(rng_next() % (uint64_t)n);
    int v = (int)(rng_next() % 128) - 64;
    if (v >= 0)
      v++;
    a->val[k] = v / 8.0;
  }
}

/* Sort the entries of one row by column, then merge equal columns; returns
   the new length of the row. */
long sparse_sort_row(int *col, double *val, long len)
{
  for (long i = 1; i < len; i++) {
    int c = col[i];
    double v = val[i];
    long j = i - 1;
    while (j >= 0 && col[j] > c) {
      col[j + 1] = col[j];
      val[j + 1] = val[j];
      j--;
    }
    col[j + 1] = c;
    val[j + 1] = v;
  }
  long out = 0;
  for (long i = 0; i < len; i++) {
    if (out > 0 && col[out - 1] == col[i]) {
      val[out - 1] += val[i];
    } else {
      col[out] = col[i];
      val[out] = val[i];
      out++;
    }
  }
  return out;
}

/* Convert triples to CSR (M must have room for a->nnz entries). */
void sparse_build_csr(const struct coo *a, int n, struct csr *m)
{
  m->n = n;
  for (int i = 0; i <= n; i++)
    m->rowptr[i] = 0;
  for (long k = 0; k < a->nnz; k++)
    m->rowptr[a->row[k] + 1]++;
  for (int i = 0; i < n; i++)
    m->rowptr[i + 1] += m->rowptr[i];
  long *next = malloc(((size_t)n + 1) * sizeof *next);
  if (!next)
    bench_fail("out of memory");
  memcpy(next, m->rowptr, ((size_t)n + 1) * sizeof *next);
  for (long k = 0; k < a->nnz; k++) {
    long p = next[a->row[k]]++;
    m->col[p] = a->col[k];
    m->val[p] = a->val[k];
  }
  free(next);
  /* Sort and merge each row, compacting the arrays in place. */
  long out = 0;
  for (int i = 0; i < n; i++) {
    long start = m->rowptr[i], len = m->rowptr[i + 1] - start;
    if (out != start) {
      memmove(m->col + out, m->col + start, (size_t)len * sizeof *m->col);
      memmove(m->val + out, m->val + start, (size_t)len * sizeof *m->val);
    }
    m->rowptr[i] = out;
    out += sparse_sort_row(m->col + out, m->val + out, len);
  }
  m->rowptr[n] = out;
  m->nnz = out;
}

/* y += A * x. */
void sparse_matvec(const struct csr *m, const double *x, double *y)
{
  for (int i = 0; i < m->n; i++) {
    double sum = 0.0;
    for (long k = m->rowptr[i]; k < m->rowptr[i + 1]; k++)
      sum += m->val[k] * x[m->col[k]];
    y[i] += sum;
  }
}

/* y = A * x by scattering the triples. */
void sparse_coo_matvec(const struct coo *a, const double *x, double *y, int n)
{
  for (int i = 0; i < n; i++)
    y[i] = 0.0;
  for (long k = 0; k < a->nnz; k++)
    y[a->row[k]] += a->val[k] * x[a->col[k]];
}

/* Row I of A times x, computed with a dense copy of the row. */
double sparse_dense_row(const struct csr *m, int i, const double *x, double *dense)
{
  for (long k = m->rowptr[i]; k < m->rowptr[i + 1]; k++)
    dense[m->col[k]] = m->val[k];
  double sum = 0.0;
  for (int j = 0; j < m->n; j++) {
    sum += dense[j] * x[j];
    dense[j] = 0.0;
  }
  return sum;
}

int main(int argc, char **argv)
{
  int n = 200000, reps = 700;
  long nnz = 1200000;

  if (bench_init(argc, argv, "sparse")) {
    n = 20000;
    nnz = 120000;
    reps = 100;
  }

  struct coo a = { malloc((size_t)nnz * sizeof(int)), malloc((size_t)nnz * sizeof(int)),
                   malloc((size_t)nnz * sizeof(double)), nnz };
  struct csr m = { 0, 0, malloc(((size_t)n + 1) * sizeof(long)), malloc((size_t)nnz * sizeof(int)),
                   malloc((size_t)nnz * sizeof(double)) };
  double *x = malloc((size_t)n * sizeof *x);
  double *y = calloc((size_t)n, sizeof *y);
  double *ref = malloc((size_t)n * sizeof *ref);
  double *dense = calloc((size_t)n, sizeof *dense);
  if (!a.row || !a.col || !a.val || !m.rowptr || !m.col || !m.val || !x || !y || !ref || !dense)
    bench_fail("out of memory");

  sparse_generate(&a, n);
  for (int j = 0; j < n; j++)
    x[j] = ((int)(rng_next() % 129) - 64) / 16.0;
  sparse_build_csr(&a, n, &m);

  for (int r = 0; r < reps; r++)
    sparse_matvec(&m, x, y);

  sparse_coo_matvec(&a, x, ref, n);
  for (int i = 0; i < n; i++)
    if (y[i] != reps * ref[i])
      bench_fail("CSR result differs from the coordinate-form product");
  for (int t = 0; t < 32; t++) {
    int i = (int)(((long)t * n + n / 2) / 32);
    if (y[i] != reps * sparse_dense_row(&m, i, x, dense))
      bench_fail("CSR result differs from the dense-row product");
  }

  uint64_t h = bench_mix(0, (uint64_t)m.nnz);
  for (int i = 0; i <= n; i += 101)
    h = bench_mix(h, (uint64_t)m.rowptr[i]);
  for (int i = 0; i < n; i++)
    h = bench_mix(h, (uint64_t)llround(y[i] * 128.0));

  free(a.row);
  free(a.col);
  free(a.val);
  free(m.rowptr);
  free(m.col);
  free(m.val);
  free(x);
  free(y);
  free(ref);
  free(dense);
  return bench_report(NULL, h);
}
/* SPDX-License-Identifier: GPL-3.0-or-later */
