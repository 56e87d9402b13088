/*
 * heapsort.c - integer heapsort benchmark for osp.
 *
 * Kernel: in-place heapsort (bottom-up heap construction, then repeated
 * extraction of the maximum with a sift-down that picks the larger child
 * and stops as soon as the parent dominates) of an array of pseudo-random
 * 32-bit integers, repeated on fresh data.  This is the HeapSort kernel of
 * the Java Grande Forum benchmark suite, section 2 (one of the kernels
 * measured in the evaluation of the OSP paper), written from scratch in C
 * for this project.
 *
 * Sizes:   default  N = 2^20 integers, 15 arrays
 *          small    N = 2^15 integers,  6 arrays
 *
 * Check:   after each sort the array must be non-decreasing and must be a
 *          permutation of the input: the element count, the wrapping sum
 *          and an order-independent sum of hashed elements are compared
 *          before and after.  The checksum digests, for every array, those
 *          multiset sums and every 97th element of the sorted output
 *          (integers only, so it is independent of the -O level).
 *
 * Usage:   heapsort [small|default]
 * Output:  "heapsort SIZE ok checksum=HEX" (exit 0) or
 *          "heapsort SIZE FAILED: why" (exit 1); a bad argument gives a usage
 *          line on stderr (exit 2).
 */
#include <stdint.h>
#include <stdlib.h>

#include "bench.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static uint64_t rng_next(void)
{
  return bench_xorshift64s(&rng_state);
}

/* Order-independent summary of a multiset of integers. */
struct multiset_sum {
  uint64_t count;
  uint64_t sum;
  uint64_t hashsum;
};

struct multiset_sum multiset_summary(const int32_t *a, size_t n)
{
  struct multiset_sum s = { 0, 0, 0 };
  for (size_t i = 0; i < n; i++) {
    uint64_t v = (uint64_t)(uint32_t)a[i];
    s.count++;
    s.sum += v;
    v ^= v >> 16;
    v *= 0x7FEB352DULL;
    v ^= v >> 15;
    v *= 0x846CA68BULL;
    v ^= v >> 16;
    s.hashsum += v;
  }
  return s;
}

/* Fill with signed integers; the range is narrower than the array for one
   array in three, so that duplicates (equal-key branches) also occur. */
void heap_fill(int32_t *a, size_t n, int round)
{
  uint32_t range = (round % 3 == 2) ? (uint32_t)(n / 4) : 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t v = (uint32_t)(rng_next() >> 32);
    if (range)
      a[i] = (int32_t)(v % range) - (int32_t)(range / 2);
    else
      a[i] = (int32_t)v;
  }
}

/* Restore the heap property below ROOT in a[0..end] (inclusive). */
void heap_sift_down(int32_t *a, size_t root, size_t end)
{
  int32_t v = a[root];
  for (;;) {
    size_t child = 2 * root + 1;
    if (child > end)
      break;
    if (child < end && a[child] < a[child + 1])
      child++;
    if (v >= a[child])
      break;
    a[root] = a[child];
    root = child;
  }
  a[root] = v;
}

void heap_build(int32_t *a, size_t n)
{
  for (size_t i = n / 2; i-- > 0;)
    heap_sift_down(a, i, n - 1);
}

void heap_sort(int32_t *a, size_t n)
{
  if (n < 2)
    return;
  heap_build(a, n);
  for (size_t end = n - 1; end > 0; end--) {
    int32_t t = a[0];
    a[0] = a[end];
    a[end] = t;
    heap_sift_down(a, 0, end - 1);
  }
}

/* Index of the first element that is smaller than its predecessor, or N. */
size_t heap_first_unsorted(const int32_t *a, size_t n)
{
  for (size_t i = 1; i < n; i++)
    if (a[i] < a[i - 1])
      return i;
  return n;
}

int main(int argc, char **argv)
{
  size_t n = (size_t)1 << 20;
  int rounds = 15;

  if (bench_init(argc, argv, "heapsort")) {
    n = (size_t)1 << 15;
    rounds = 6;
  }

  int32_t *a = malloc(n * sizeof *a);
  if (!a)
    bench_fail("out of memory");

  uint64_t h = 0;
  for (int r = 0; r < rounds; r++) {
    heap_fill(a, n, r);
    struct multiset_sum before = multiset_summary(a, n);
    heap_sort(a, n);
    if (heap_first_unsorted(a, n) != n)
      bench_fail("output is not sorted");
    struct multiset_sum after = multiset_summary(a, n);
    if (before.count != after.count || before.sum != after.sum || before.hashsum != after.hashsum)
      bench_fail("output is not a permutation of the input");
    h = bench_mix(h, after.count);
    h = bench_mix(h, after.sum);
    h = bench_mix(h, after.hashsum);
    for (size_t i = 0; i < n; i += 97)
      h = bench_mix(h, (uint64_t)(uint32_t)a[i]);
  }

  free(a);
  return bench_report(NULL, h);
}
/* SPDX-License-Identifier: GPL-3.0-or-later */
