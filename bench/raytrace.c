/* bench/raytrace.c - ray tracer benchmark for the osp benchmark runner.
 *
 * What it is: a small Whitted-style ray tracer.  The scene is a 4 x 4 grid of spheres (some
 * mirror-like, some matte, some glossy) standing on a checkered floor plane in front of a back
 * wall plane, with 16 smaller spheres floating above, lit by three point lights.  Each pixel
 * shoots one primary ray; a hit is shaded with ambient + Lambert diffuse + Phong specular per
 * light, each light tested with a shadow ray, and reflective surfaces spawn a recursive
 * reflection ray (depth at most 5).  The image is rendered into memory as 8-bit RGB.
 *
 * What it stands for: RayTracer of the Java Grande benchmark suite, section 3 (applications),
 * which renders a scene of 64 spheres: the same intersect / shadow / shade / reflect recursion,
 * with its object-kind dispatch and early-exit shadow loops, that the OSP paper profiled.
 *
 * Sizes: small   = 200 x 150 pixels, one camera position;
 *        default = 800 x 600 pixels, rendered from 4 camera positions.
 *
 * How the result is checked: sanity of the image (some pixels lit, some in the shadow of every
 * light, primary rays hit objects, reflection rays traced and shadow rays blocked, not every
 * pixel equal), and the FNV-1a checksum of the 8-bit images must equal the value recorded for
 * the size when this program was written.  Colours are quantised to 8 bits (with a guard band
 * around each rounding step; see quantise()) so that -O0, -O2 and -O3 -march=native with FMA
 * contraction give the same bytes.
 *
 * Usage: raytrace [small|default].  Prints "raytrace SIZE ok checksum=HEX" and exits 0, or
 * "raytrace SIZE FAILED: reason" and exits 1.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

typedef struct {
  double x, y, z;
} vec;

static inline vec v_make(double x, double y, double z) { vec v = {x, y, z}; return v; }
static inline vec v_add(vec a, vec b) { return v_make(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline vec v_sub(vec a, vec b) { return v_make(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline vec v_scale(vec a, double s) { return v_make(a.x * s, a.y * s, a.z * s); }
static inline vec v_mul(vec a, vec b) { return v_make(a.x * b.x, a.y * b.y, a.z * b.z); }
static inline double v_dot(vec a, vec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline vec v_norm(vec a) { return v_scale(a, 1.0 / sqrt(v_dot(a, a))); }

enum obj_kind { OBJ_SPHERE, OBJ_PLANE };

struct material {
  vec color;
  double kd, ks, shine, kr; /* diffuse, specular, Phong exponent, reflectance */
  int checker;              /* checkered texture (planes) */
};

struct object {
  enum obj_kind kind;
  vec c;        /* sphere centre */
  double r2;    /* sphere radius squared */
  vec n;        /* plane normal */
  double d;     /* plane: n.p = d */
  int mat;
};

struct light {
  vec pos, color;
};

#define MAX_OBJ 40
#define NLIGHT 3
#define MAX_DEPTH 5
#define EPS 1e-7

struct scene {
  struct object obj[MAX_OBJ];
  int nobj;
  struct material mat[8];
  struct light light[NLIGHT];
  vec background;
  vec ambient;
};

struct stats {
  long primary_hits, background, reflect_rays, shadow_rays, shadow_blocked;
  long pixels_lit, pixels_dark;
};

static struct stats st;

struct ray {
  vec o, d;
};

void build_scene(struct scene *s)
{
  memset(s, 0, sizeof *s);
  s->mat[0] = (struct material){{0.9, 0.9, 0.9}, 0.7, 0.2, 20.0, 0.15, 1};  /* floor */
  s->mat[1] = (struct material){{0.6, 0.7, 0.9}, 0.8, 0.1, 10.0, 0.0, 0};   /* wall */
  s->mat[2] = (struct material){{0.9, 0.2, 0.2}, 0.8, 0.5, 40.0, 0.0, 0};   /* matte red */
  s->mat[3] = (struct material){{0.8, 0.8, 0.9}, 0.2, 0.8, 80.0, 0.7, 0};   /* mirror */
  s->mat[4] = (struct material){{0.2, 0.8, 0.3}, 0.7, 0.6, 30.0, 0.3, 0};   /* glossy green */
  s->mat[5] = (struct material){{0.9, 0.8, 0.2}, 0.9, 0.3, 15.0, 0.1, 0};   /* yellow */
  int k = 0;
  s->obj[k++] = (struct object){OBJ_PLANE, {0, 0, 0}, 0, {0, 1, 0}, 0.0, 0};
  s->obj[k++] = (struct object){OBJ_PLANE, {0, 0, 0}, 0, {0, 0, -1}, -12.0, 1};
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      double r = 0.55 + 0.1 * ((i + 2 * j) % 3);
      struct object o;
      memset(&o, 0, sizeof o);
      o.kind = OBJ_SPHERE;
      o.c = v_make(-3.6 + 2.4 * i, r, 0.5 + 2.6 * j);
      o.r2 = r * r;
      o.mat = 2 + (i * 3 + j) % 4;
      s->obj[k++] = o;
      /* a small floating sphere above each gap of the grid */
      memset(&o, 0, sizeof o);
      o.kind = OBJ_SPHERE;
      o.c = v_make(-2.4 + 2.4 * i, 2.1 + 0.3 * ((i + j) & 1), 1.8 + 2.6 * j);
      o.r2 = 0.3 * 0.3;
      o.mat = 2 + (i + j) % 4;
      s->obj[k++] = o;
    }
  s->nobj = k;
  s->light[0] = (struct light){{-6.0, 9.0, -6.0}, {0.7, 0.7, 0.7}};
  s->light[1] = (struct light){{7.0, 5.0, -2.0}, {0.5, 0.45, 0.4}};
  s->light[2] = (struct light){{0.5, 2.2, 4.0}, {0.3, 0.3, 0.35}};
  s->background = v_make(0.05, 0.07, 0.12);
  s->ambient = v_make(0.08, 0.08, 0.08);
}

/* Nearest positive root of |o + t d - c|^2 = r^2 (d normalised), or -1. */
double intersect_sphere(const struct object *ob, const struct ray *r)
{
  vec oc = v_sub(r->o, ob->c);
  double b = v_dot(oc, r->d);
  double c = v_dot(oc, oc) - ob->r2;
  double disc = b * b - c;
  if (disc < 0.0)
    return -1.0;
  double sq = sqrt(disc);
  double t = -b - sq;
  if (t > EPS)
    return t;
  t = -b + sq;
  if (t > EPS)
    return t;
  return -1.0;
}

double intersect_plane(const struct object *ob, const struct ray *r)
{
  double den = v_dot(ob->n, r->d);
  if (fabs(den) < 1e-12)
    return -1.0;
  double t = (ob->d - v_dot(ob->n, r->o)) / den;
  return t > EPS ? t : -1.0;
}

static double intersect(const struct object *ob, const struct ray *r)
{
  switch (ob->kind) {
  case OBJ_SPHERE:
    return intersect_sphere(ob, r);
  case OBJ_PLANE:
    return intersect_plane(ob, r);
  }
  return -1.0;
}

/* Index of the nearest object hit, or -1; *tout gets the distance. */
int nearest_hit(const struct scene *s, const struct ray *r, double *tout)
{
  int best = -1;
  double bt = 1e30;
  for (int i = 0; i < s->nobj; i++) {
    double t = intersect(&s->obj[i], r);
    if (t > 0.0 && t < bt) {
      bt = t;
      best = i;
    }
  }
  *tout = bt;
  return best;
}

/* Is the segment from p to the light blocked? */
int in_shadow(const struct scene *s, vec p, vec lpos)
{
  vec d = v_sub(lpos, p);
  double dist = sqrt(v_dot(d, d));
  struct ray r = {p, v_scale(d, 1.0 / dist)};
  st.shadow_rays++;
  for (int i = 0; i < s->nobj; i++) {
    double t = intersect(&s->obj[i], &r);
    if (t > 0.0 && t < dist) {
      st.shadow_blocked++;
      return 1;
    }
  }
  return 0;
}

static vec surface_color(const struct scene *s, const struct object *ob, vec p)
{
  const struct material *m = &s->mat[ob->mat];
  if (m->checker) {
    long cx = (long)floor(p.x * 0.5), cz = (long)floor(p.z * 0.5);
    if ((cx + cz) & 1)
      return v_scale(m->color, 0.25);
  }
  return m->color;
}

/* Colour seen along r; *lights_seen gets the number of lights reaching the first hit. */
vec trace(const struct scene *s, const struct ray *r, int depth, int *lights_seen)
{
  double t;
  int hit = nearest_hit(s, r, &t);
  if (hit < 0)
    return s->background;
  const struct object *ob = &s->obj[hit];
  const struct material *m = &s->mat[ob->mat];
  vec p = v_add(r->o, v_scale(r->d, t));
  vec n = ob->kind == OBJ_SPHERE ? v_norm(v_sub(p, ob->c)) : ob->n;
  if (v_dot(n, r->d) > 0.0)
    n = v_scale(n, -1.0);
  vec p_off = v_add(p, v_scale(n, 1e-6));
  vec base = surface_color(s, ob, p);
  vec col = v_mul(base, s->ambient);
  int seen = 0;
  for (int l = 0; l < NLIGHT; l++) {
    vec ld = v_sub(s->light[l].pos, p);
    double ndl = v_dot(n, ld);
    if (ndl <= 0.0)
      continue; /* facing away */
    if (in_shadow(s, p_off, s->light[l].pos))
      continue;
    seen++;
    ld = v_norm(ld);
    ndl = v_dot(n, ld);
    col = v_add(col, v_scale(v_mul(base, s->light[l].color), m->kd * ndl));
    if (m->ks > 0.0) {
      vec h = v_norm(v_sub(ld, r->d));
      double nh = v_dot(n, h);
      if (nh > 0.0)
        col = v_add(col, v_scale(s->light[l].color, m->ks * pow(nh, m->shine)));
    }
  }
  if (lights_seen)
    *lights_seen = seen;
  if (m->kr > 0.0 && depth < MAX_DEPTH) {
    struct ray rr;
    rr.o = p_off;
    rr.d = v_sub(r->d, v_scale(n, 2.0 * v_dot(n, r->d)));
    st.reflect_rays++;
    vec rc = trace(s, &rr, depth + 1, NULL);
    col = v_add(v_scale(col, 1.0 - m->kr), v_scale(rc, m->kr));
  }
  return col;
}

/* 8-bit channel value.  A value within 1/64 of a rounding step is pulled to the step's lower
 * side, so that the last-bit differences of FMA contraction cannot flip a byte in practice. */
static unsigned char quantise(double c)
{
  if (!(c > 0.0))
    return 0;
  if (c >= 1.0)
    return 255;
  double v = c * 255.0;
  double f = floor(v);
  double frac = v - f;
  if (frac > 0.5 - 1.0 / 64 && frac < 0.5 + 1.0 / 64)
    return (unsigned char)f;
  return (unsigned char)(frac >= 0.5 ? f + 1.0 : f);
}

void render(const struct scene *s, unsigned char *img, int w, int h, vec eye, vec look)
{
  vec fwd = v_norm(v_sub(look, eye));
  vec right = v_norm(v_make(fwd.z, 0.0, -fwd.x));
  vec up = v_make(fwd.y * right.z - fwd.z * right.y, fwd.z * right.x - fwd.x * right.z,
                  fwd.x * right.y - fwd.y * right.x);
  double aspect = (double)w / h, fov = 0.55;
  for (int y = 0; y < h; y++) {
    for (int x = 0; x < w; x++) {
      double u = ((x + 0.5) / w * 2.0 - 1.0) * aspect * fov;
      double v = (1.0 - (y + 0.5) / h * 2.0) * fov;
      struct ray r = {eye, v_norm(v_add(fwd, v_add(v_scale(right, u), v_scale(up, v))))};
      double t;
      int seen = -1;
      if (nearest_hit(s, &r, &t) >= 0)
        st.primary_hits++;
      else
        st.background++;
      vec c = trace(s, &r, 0, &seen);
      if (seen > 0)
        st.pixels_lit++;
      else if (seen == 0)
        st.pixels_dark++;
      unsigned char *px = img + 3 * ((size_t)y * w + x);
      px[0] = quantise(c.x);
      px[1] = quantise(c.y);
      px[2] = quantise(c.z);
    }
  }
}

int main(int argc, char **argv)
{
  int small = bench_init(argc, argv, "raytrace");
  int w = small ? 200 : 800, h = small ? 150 : 600, passes = small ? 1 : 4;
  /* FNV-1a of the image(s) of this program, recorded when it was written. */
  const uint64_t expect = small ? 0x9d3db39b5e61c10eULL : 0x19f769c624ff65f8ULL;

  struct scene s;
  build_scene(&s);
  unsigned char *img = bench_xmalloc((size_t)w * h * 3);
  uint64_t sum = BENCH_FNV_BASIS;
  long distinct_check = 0;
  for (int pass = 0; pass < passes; pass++) {
    vec eye = v_make(-1.0 + 1.5 * pass, 4.5 - 0.5 * pass, -7.0);
    render(&s, img, w, h, eye, v_make(0.0, 0.8, 3.0));
    sum = bench_fnv1a(sum, img, (size_t)w * h * 3);
    for (size_t i = 3; i < (size_t)w * h * 3; i++)
      distinct_check += img[i] != img[i - 3];
  }
  free(img);

  const char *fail = NULL;
  if (st.pixels_lit == 0)
    fail = "no lit pixels";
  else if (st.pixels_dark == 0)
    fail = "no pixel in the shadow of every light";
  else if (st.primary_hits == 0)
    fail = "no object in view";
  else if (st.reflect_rays == 0 || st.shadow_blocked == 0)
    fail = "no reflections or no blocked shadow rays";
  else if (distinct_check == 0)
    fail = "image is flat";
  else if (sum != expect)
    fail = "image checksum differs from the recorded one";
  return bench_report(fail, sum);
}
/* SPDX-License-Identifier: GPL-3.0-or-later */
