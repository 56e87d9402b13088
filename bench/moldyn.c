/* bench/moldyn.c - molecular dynamics benchmark for the osp benchmark runner.
 *
 * What it is: N particles of a Lennard-Jones fluid in a periodic cubic box, started on an fcc
 * lattice with random velocities, integrated with velocity Verlet.  Forces are computed over all
 * pairs with the minimum-image convention and a cutoff (rc = 2.5 sigma, potential shifted to 0 at
 * the cutoff so that the total energy is conserved).  Reduced units: sigma = epsilon = m = 1.
 *
 * What it stands for: MolDyn of the Java Grande benchmark suite, section 3 (applications): the
 * same N^2/2 pair loop with a cutoff and periodic-boundary branches, which the OSP paper profiled.
 *
 * Sizes (4*M^3 particles on an M x M x M fcc lattice, density 0.8, T0 = 0.72, dt = 0.004):
 *   small    M = 5:   500 particles,  60 steps
 *   default  M = 8:  2048 particles, 200 steps
 *
 * How the result is checked: the total energy (kinetic + potential) is sampled every step; its
 * largest deviation from the initial value must stay within 0.1% of |E0|, the final temperature
 * must be physical (0.2 < T < 2), and the number of interacting pairs must be non-zero.  The
 * checksum digests the particle count, the step count and the potential and kinetic energies
 * per particle at a few checkpoints rounded to 1e-4, so that -O0, -O2, -O3 -march=native (with
 * FMA contraction) give the same line.
 *
 * Usage: moldyn [small|default].  Prints "moldyn SIZE ok checksum=HEX" and exits 0, or
 * "moldyn SIZE FAILED: reason" and exits 1.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

struct md_system {
  int n;                 /* particles */
  double box, half;      /* box edge, half of it */
  double rc2, ecut;      /* cutoff squared, potential at the cutoff */
  double *x, *y, *z;     /* positions */
  double *vx, *vy, *vz;  /* velocities */
  double *fx, *fy, *fz;  /* forces */
  double epot;           /* potential energy of the last force computation */
  double virial;         /* sum of r.f of the last force computation */
  long pairs;            /* pairs within the cutoff in the last force computation */
};

/* splitmix64: the benchmark's own generator with a fixed seed. */
static uint64_t rng_state = 0x5eed0f0d1234abcdULL;

uint64_t rng_next(void)
{
  return bench_splitmix64(&rng_state);
}

/* Uniform in [-0.5, 0.5). */
static double rng_centered(void)
{
  return bench_unit(rng_next()) - 0.5;
}

static uint64_t digest = BENCH_FNV_BASIS;

static void digest_u64(uint64_t v)
{
  digest = bench_fnv1a_u64(digest, v);
}

/* Digest a value rounded to a multiple of 1e-4 (coarse enough for any -O level). */
static void digest_rounded(double v)
{
  digest_u64((uint64_t)(int64_t)llround(v * 1e4));
}

void md_alloc(struct md_system *s, int n)
{
  s->n = n;
  s->x = bench_xcalloc((size_t)n, sizeof(double));
  s->y = bench_xcalloc((size_t)n, sizeof(double));
  s->z = bench_xcalloc((size_t)n, sizeof(double));
  s->vx = bench_xcalloc((size_t)n, sizeof(double));
  s->vy = bench_xcalloc((size_t)n, sizeof(double));
  s->vz = bench_xcalloc((size_t)n, sizeof(double));
  s->fx = bench_xcalloc((size_t)n, sizeof(double));
  s->fy = bench_xcalloc((size_t)n, sizeof(double));
  s->fz = bench_xcalloc((size_t)n, sizeof(double));
}

void md_free(struct md_system *s)
{
  free(s->x); free(s->y); free(s->z);
  free(s->vx); free(s->vy); free(s->vz);
  free(s->fx); free(s->fy); free(s->fz);
}

/* Place 4*m^3 particles on an fcc lattice filling a box of the given density. */
void lattice_init(struct md_system *s, int m, double density, double rcut)
{
  static const double basis[4][3] = {
    {0.25, 0.25, 0.25}, {0.75, 0.75, 0.25}, {0.75, 0.25, 0.75}, {0.25, 0.75, 0.75}};
  int n = 4 * m * m * m;
  md_alloc(s, n);
  s->box = cbrt((double)n / density);
  s->half = 0.5 * s->box;
  s->rc2 = rcut * rcut;
  double ir6 = 1.0 / (s->rc2 * s->rc2 * s->rc2);
  s->ecut = 4.0 * ir6 * (ir6 - 1.0);
  double a = s->box / m;
  int k = 0;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < m; j++)
      for (int l = 0; l < m; l++)
        for (int b = 0; b < 4; b++) {
          s->x[k] = (i + basis[b][0]) * a;
          s->y[k] = (j + basis[b][1]) * a;
          s->z[k] = (l + basis[b][2]) * a;
          k++;
        }
}

double kinetic_energy(const struct md_system *s)
{
  double ke = 0.0;
  for (int i = 0; i < s->n; i++)
    ke += s->vx[i] * s->vx[i] + s->vy[i] * s->vy[i] + s->vz[i] * s->vz[i];
  return 0.5 * ke;
}

/* Random velocities with zero total momentum, scaled to the temperature. */
void velocity_init(struct md_system *s, double temp)
{
  double sx = 0, sy = 0, sz = 0;
  for (int i = 0; i < s->n; i++) {
    s->vx[i] = rng_centered();
    s->vy[i] = rng_centered();
    s->vz[i] = rng_centered();
    sx += s->vx[i];
    sy += s->vy[i];
    sz += s->vz[i];
  }
  sx /= s->n;
  sy /= s->n;
  sz /= s->n;
  for (int i = 0; i < s->n; i++) {
    s->vx[i] -= sx;
    s->vy[i] -= sy;
    s->vz[i] -= sz;
  }
  double want = 1.5 * s->n * temp;
  double scale = sqrt(want / kinetic_energy(s));
  for (int i = 0; i < s->n; i++) {
    s->vx[i] *= scale;
    s->vy[i] *= scale;
    s->vz[i] *= scale;
  }
}

/* Minimum-image displacement along one axis. */
static inline double min_image(double d, double box, double half)
{
  if (d > half)
    d -= box;
  else if (d < -half)
    d += box;
  return d;
}

/* All-pairs Lennard-Jones forces with a cutoff; sets epot, virial, pairs. */
void compute_forces(struct md_system *s)
{
  int n = s->n;
  double box = s->box, half = s->half, rc2 = s->rc2, ecut = s->ecut;
  double epot = 0.0, vir = 0.0;
  long pairs = 0;
  memset(s->fx, 0, (size_t)n * sizeof(double));
  memset(s->fy, 0, (size_t)n * sizeof(double));
  memset(s->fz, 0, (size_t)n * sizeof(double));
  for (int i = 0; i < n - 1; i++) {
    double xi = s->x[i], yi = s->y[i], zi = s->z[i];
    double fxi = 0.0, fyi = 0.0, fzi = 0.0;
    for (int j = i + 1; j < n; j++) {
      double dx = min_image(xi - s->x[j], box, half);
      double dy = min_image(yi - s->y[j], box, half);
      double dz = min_image(zi - s->z[j], box, half);
      double r2 = dx * dx + dy * dy + dz * dz;
      if (r2 >= rc2)
        continue;
      double ir2 = 1.0 / r2;
      double ir6 = ir2 * ir2 * ir2;
      double ff = 24.0 * ir6 * (2.0 * ir6 - 1.0) * ir2;
      epot += 4.0 * ir6 * (ir6 - 1.0) - ecut;
      vir += ff * r2;
      pairs++;
      fxi += ff * dx;
      fyi += ff * dy;
      fzi += ff * dz;
      s->fx[j] -= ff * dx;
      s->fy[j] -= ff * dy;
      s->fz[j] -= ff * dz;
    }
    s->fx[i] += fxi;
    s->fy[i] += fyi;
    s->fz[i] += fzi;
  }
  s->epot = epot;
  s->virial = vir;
  s->pairs = pairs;
}

/* Put a coordinate back into [0, box). */
static inline double wrap(double c, double box)
{
  if (c < 0.0)
    c += box;
  else if (c >= box)
    c -= box;
  return c;
}

/* One velocity Verlet step; returns the kinetic energy after the step. */
double verlet_step(struct md_system *s, double dt)
{
  double hdt = 0.5 * dt;
  for (int i = 0; i < s->n; i++) {
    s->vx[i] += hdt * s->fx[i];
    s->vy[i] += hdt * s->fy[i];
    s->vz[i] += hdt * s->fz[i];
    s->x[i] = wrap(s->x[i] + dt * s->vx[i], s->box);
    s->y[i] = wrap(s->y[i] + dt * s->vy[i], s->box);
    s->z[i] = wrap(s->z[i] + dt * s->vz[i], s->box);
  }
  compute_forces(s);
  for (int i = 0; i < s->n; i++) {
    s->vx[i] += hdt * s->fx[i];
    s->vy[i] += hdt * s->fy[i];
    s->vz[i] += hdt * s->fz[i];
  }
  return kinetic_energy(s);
}

int main(int argc, char **argv)
{
  int small = bench_init(argc, argv, "moldyn");
  int m = small ? 5 : 8;
  int steps = small ? 60 : 200;
  const double dt = 0.004;

  struct md_system s;
  lattice_init(&s, m, 0.8, 2.5);
  velocity_init(&s, 0.72);
  compute_forces(&s);
  double e0 = kinetic_energy(&s) + s.epot;
  double maxdev = 0.0, ke = 0.0;
  digest_u64((uint64_t)s.n);
  digest_u64((uint64_t)steps);
  digest_rounded(e0 / s.n);
  for (int step = 1; step <= steps; step++) {
    ke = verlet_step(&s, dt);
    double dev = fabs(ke + s.epot - e0);
    if (dev > maxdev)
      maxdev = dev;
    if (step % 20 == 0) {
      digest_rounded(s.epot / s.n);
      digest_rounded(ke / s.n);
    }
  }
  double temp = ke / (1.5 * s.n);
  const char *fail = NULL;
  char why[160];
  if (!(maxdev <= 1e-3 * fabs(e0))) {
    snprintf(why, sizeof why, "energy drift %.3g exceeds 0.1%% of |E0| = %.6g", maxdev, fabs(e0));
    fail = why;
  } else if (!(temp > 0.2 && temp < 2.0)) {
    snprintf(why, sizeof why, "final temperature %.4g out of range", temp);
    fail = why;
  } else if (s.pairs <= 0) {
    fail = "no interacting pairs";
  }
  md_free(&s);
  return bench_report(fail, digest);
}
/* SPDX-License-Identifier: GPL-3.0-or-later */
