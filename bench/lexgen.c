/* bench/lexgen.c - lexer generator benchmark for the osp benchmark runner.
 *
 * What it is: the job of a lexer generator such as JLex, then the generated lexer's job.  A
 * specification of 33 token rules for a C-like language (keywords, identifiers, numbers,
 * strings, character literals, comments, operators, punctuation, white space) is parsed by a
 * recursive-descent regular-expression parser (concatenation, |, *, +, ?, character classes
 * with ranges and negation, ., escapes, parentheses) straight into a Thompson NFA; the
 * subset construction turns the NFA into a DFA (epsilon closures over bitsets, a hash table of
 * the state sets), Moore's partition refinement minimises it, and the minimal DFA then scans
 * a generated program text with longest match and rule priority, counting tokens per rule.
 *
 * What it stands for: JLex (the lexer generator of the Java benchmarks the OSP paper measured)
 * and lex/flex/re2c-style scanners C users run: a recursive parser, set-heavy graph
 * construction, then a table-driven inner loop.
 *
 * Sizes: small = the spec built 3 times (from scratch each time, as a generator run per build
 * would), 256 KiB of text scanned twice; default = the spec built 100 times, 8 MiB of text
 * scanned 30 times (as a lexer run over many source files).
 *
 * How the result is checked: the token counts per rule of the minimal DFA over all passes
 * equal the passes times the counts of the generator that wrote the text; on a sample
 * (32 KiB small, 256 KiB default) the unminimised DFA and a direct NFA simulation (sets of NFA states) give the same
 * counts as the minimal DFA; the minimal DFA has no more states than the unminimised one;
 * repeated builds give identical DFAs.  The checksum digests the state counts and the
 * per-rule token counts.
 *
 * Usage: lexgen [small|default].  Prints "lexgen SIZE ok checksum=HEX" and exits 0, or
 * "lexgen SIZE FAILED: reason" and exits 1.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define ALPHA 128
#define MAX_NFA 4096
#define MAX_SETS 1024

/* ---- the specification ----------------------------------------------------------------- */

struct rule {
  const char *name, *re;
};

static const struct rule rules[] = {
  {"if", "if"}, {"else", "else"}, {"while", "while"}, {"for", "for"}, {"return", "return"},
  {"int", "int"}, {"char", "char"}, {"void", "void"}, {"struct", "struct"},
  {"static", "static"}, {"const", "const"}, {"unsigned", "unsigned"}, {"sizeof", "sizeof"},
  {"break", "break"}, {"continue", "continue"}, {"switch", "switch"}, {"case", "case"},
  {"default", "default"}, {"do", "do"}, {"goto", "goto"},
  {"ident", "[a-zA-Z_][a-zA-Z0-9_]*"},
  {"hex", "0[xX][0-9a-fA-F]+"},
  {"float", "[0-9]+\\.[0-9]*([eE][-+]?[0-9]+)?|[0-9]+[eE][-+]?[0-9]+"},
  {"int_lit", "[0-9]+[uUlL]?"},
  {"string", "\"([^\"\\\\\\n]|\\\\.)*\""},
  {"char_lit", "'([^'\\\\\\n]|\\\\.)'"},
  {"comment", "/\\*([^*]|\\*+[^*/])*\\*+/"},
  {"line_comment", "//[^\\n]*"},
  {"op3", "<<=|>>=|\\.\\.\\."},
  {"op2", "\\+\\+|--|->|==|!=|<=|>=|&&|\\|\\||<<|>>|[-+*/%&|^]="},
  {"op1", "[-+*/%<>=!&|^~?:.]"},
  {"punct", "[(){};,\\[\\]]"},
  {"ws", "[ \\t\\n]+"},
};

#define NRULES ((int)(sizeof rules / sizeof rules[0]))
#define NKEYWORDS 20
enum { R_IDENT = NKEYWORDS, R_HEX, R_FLOAT, R_INT, R_STRING, R_CHAR, R_COMMENT, R_LCOMMENT,
       R_OP3, R_OP2, R_OP1, R_PUNCT, R_WS };

/* ---- Thompson NFA ---------------------------------------------------------------------- */

struct nfa_state {
  int set;        /* character set of the transition to out, or -1: epsilon state */
  int out, out2;  /* successors (-1: none); out2 only for epsilon states */
  int accept;     /* rule accepted here, or -1 */
};

struct nfa {
  struct nfa_state st[MAX_NFA];
  int n;
  uint32_t sets[MAX_SETS][ALPHA / 32];
  int nsets;
  int start;
};

struct frag {
  int start, end; /* end: an epsilon state without successors yet */
};

struct parser {
  struct nfa *nfa;
  const char *p;
  const char *error;
};

static int new_state(struct parser *ps, int set)
{
  struct nfa *a = ps->nfa;
  if (a->n >= MAX_NFA) {
    ps->error = "too many NFA states";
    return 0;
  }
  a->st[a->n] = (struct nfa_state){set, -1, -1, -1};
  return a->n++;
}

static int new_set(struct parser *ps)
{
  struct nfa *a = ps->nfa;
  if (a->nsets >= MAX_SETS) {
    ps->error = "too many character sets";
    return 0;
  }
  memset(a->sets[a->nsets], 0, sizeof a->sets[0]);
  return a->nsets++;
}

static void set_add(uint32_t *set, int lo, int hi)
{
  for (int c = lo; c <= hi; c++)
    set[c >> 5] |= 1u << (c & 31);
}

static inline int set_has(const uint32_t *set, int c)
{
  return (set[c >> 5] >> (c & 31)) & 1;
}

static struct frag frag_set(struct parser *ps, int set)
{
  int s = new_state(ps, set), e = new_state(ps, -1);
  ps->nfa->st[s].out = e;
  return (struct frag){s, e};
}

static struct frag frag_concat(struct parser *ps, struct frag a, struct frag b)
{
  ps->nfa->st[a.end].out = b.start;
  return (struct frag){a.start, b.end};
}

static struct frag frag_alt(struct parser *ps, struct frag a, struct frag b)
{
  int s = new_state(ps, -1), e = new_state(ps, -1);
  struct nfa_state *st = ps->nfa->st;
  st[s].out = a.start;
  st[s].out2 = b.start;
  st[a.end].out = e;
  st[b.end].out = e;
  return (struct frag){s, e};
}

/* op is '*', '+' or '?'. */
static struct frag frag_repeat(struct parser *ps, struct frag a, char op)
{
  int e = new_state(ps, -1);
  struct nfa_state *st = ps->nfa->st;
  switch (op) {
  case '*': {
    int s = new_state(ps, -1);
    st = ps->nfa->st;
    st[s].out = a.start;
    st[s].out2 = e;
    st[a.end].out = a.start;
    st[a.end].out2 = e;
    return (struct frag){s, e};
  }
  case '+':
    st[a.end].out = a.start;
    st[a.end].out2 = e;
    return (struct frag){a.start, e};
  default: {
    int s = new_state(ps, -1);
    st = ps->nfa->st;
    st[s].out = a.start;
    st[s].out2 = e;
    st[a.end].out = e;
    return (struct frag){s, e};
  }
  }
}

struct frag parse_alt(struct parser *ps);

/* One possibly escaped character (inside or outside a class). */
static int parse_char(struct parser *ps)
{
  int c = (unsigned char)*ps->p++;
  if (c != '\\')
    return c;
  c = (unsigned char)*ps->p;
  if (!c) {
    ps->error = "trailing backslash";
    return 'x';
  }
  ps->p++;
  switch (c) {
  case 'n': return '\n';
  case 't': return '\t';
  case 'r': return '\r';
  default: return c;
  }
}

/* [...] after the '['. */
struct frag parse_class(struct parser *ps)
{
  int set = new_set(ps);
  uint32_t *bits = ps->nfa->sets[set];
  int negate = 0;
  if (*ps->p == '^') {
    negate = 1;
    ps->p++;
  }
  while (*ps->p && *ps->p != ']' && !ps->error) {
    int lo = parse_char(ps), hi = lo;
    if (ps->p[0] == '-' && ps->p[1] && ps->p[1] != ']') {
      ps->p++;
      hi = parse_char(ps);
      if (hi < lo) {
        ps->error = "reversed range";
        break;
      }
    }
    if (hi >= ALPHA) {
      ps->error = "non-ASCII character";
      break;
    }
    set_add(bits, lo, hi);
  }
  if (*ps->p != ']') {
    if (!ps->error)
      ps->error = "unterminated class";
  } else {
    ps->p++;
  }
  if (negate)
    for (int w = 0; w < ALPHA / 32; w++)
      bits[w] = ~bits[w];
  bits[0] &= ~1u; /* never NUL */
  return frag_set(ps, set);
}

struct frag parse_atom(struct parser *ps)
{
  char c = *ps->p;
  if (c == '(') {
    ps->p++;
    struct frag f = parse_alt(ps);
    if (*ps->p != ')') {
      if (!ps->error)
        ps->error = "missing )";
    } else {
      ps->p++;
    }
    return f;
  }
  if (c == '[') {
    ps->p++;
    return parse_class(ps);
  }
  int set = new_set(ps);
  if (c == '.') {
    ps->p++;
    set_add(ps->nfa->sets[set], 1, ALPHA - 1);
    ps->nfa->sets[set]['\n' >> 5] &= ~(1u << ('\n' & 31));
  } else if (c == '*' || c == '+' || c == '?') {
    ps->error = "repetition of nothing";
  } else {
    int ch = parse_char(ps);
    if (ch >= ALPHA)
      ps->error = "non-ASCII character";
    else
      set_add(ps->nfa->sets[set], ch, ch);
  }
  return frag_set(ps, set);
}

struct frag parse_repeat(struct parser *ps)
{
  struct frag f = parse_atom(ps);
  while (!ps->error && (*ps->p == '*' || *ps->p == '+' || *ps->p == '?'))
    f = frag_repeat(ps, f, *ps->p++);
  return f;
}

struct frag parse_concat(struct parser *ps)
{
  int e = new_state(ps, -1);
  struct frag f = {e, e}; /* the empty string */
  while (!ps->error && *ps->p && *ps->p != '|' && *ps->p != ')')
    f = frag_concat(ps, f, parse_repeat(ps));
  return f;
}

struct frag parse_alt(struct parser *ps)
{
  struct frag f = parse_concat(ps);
  while (!ps->error && *ps->p == '|') {
    ps->p++;
    f = frag_alt(ps, f, parse_concat(ps));
  }
  return f;
}

/* Build the combined NFA of all rules; returns an error message or NULL. */
const char *build_nfa(struct nfa *a)
{
  struct parser ps = {a, NULL, NULL};
  a->n = 0;
  a->nsets = 0;
  int prev = -1;
  for (int r = 0; r < NRULES; r++) {
    ps.p = rules[r].re;
    struct frag f = parse_alt(&ps);
    if (!ps.error && *ps.p)
      ps.error = "unbalanced )";
    if (ps.error)
      return ps.error;
    a->st[f.end].accept = r;
    int s = new_state(&ps, -1);
    a->st[s].out = f.start;
    if (prev >= 0)
      a->st[prev].out2 = s;
    else
      a->start = s;
    prev = s;
  }
  return ps.error;
}

/* ---- state sets ------------------------------------------------------------------------ */

static inline void bit_set(uint64_t *b, int i) { b[i >> 6] |= 1ULL << (i & 63); }
static inline int bit_get(const uint64_t *b, int i) { return (int)((b[i >> 6] >> (i & 63)) & 1); }

/* Close the set under epsilon moves. */
void eps_closure(const struct nfa *a, uint64_t *set, int nwords, int *stack)
{
  int sp = 0;
  for (int w = 0; w < nwords; w++)
    for (uint64_t m = set[w]; m; m &= m - 1)
      stack[sp++] = w * 64 + __builtin_ctzll(m);
  while (sp > 0) {
    const struct nfa_state *s = &a->st[stack[--sp]];
    if (s->set >= 0)
      continue;
    if (s->out >= 0 && !bit_get(set, s->out)) {
      bit_set(set, s->out);
      stack[sp++] = s->out;
    }
    if (s->out2 >= 0 && !bit_get(set, s->out2)) {
      bit_set(set, s->out2);
      stack[sp++] = s->out2;
    }
  }
}

/* The rule accepted by a set of NFA states (the smallest rule number), or -1. */
static int set_accept(const struct nfa *a, const uint64_t *set, int nwords)
{
  int best = -1;
  for (int w = 0; w < nwords; w++)
    for (uint64_t m = set[w]; m; m &= m - 1) {
      int acc = a->st[w * 64 + __builtin_ctzll(m)].accept;
      if (acc >= 0 && (best < 0 || acc < best))
        best = acc;
    }
  return best;
}

/* ---- subset construction --------------------------------------------------------------- */

struct dfa {
  int n, cap;
  int (*trans)[ALPHA];
  int *accept;
  int start;
};

static int dfa_add_state(struct dfa *d)
{
  if (d->n == d->cap) {
    d->cap = d->cap ? 2 * d->cap : 64;
    d->trans = bench_xrealloc(d->trans, (size_t)d->cap * sizeof *d->trans);
    d->accept = bench_xrealloc(d->accept, (size_t)d->cap * sizeof *d->accept);
  }
  return d->n++;
}

void dfa_free(struct dfa *d)
{
  free(d->trans);
  free(d->accept);
  memset(d, 0, sizeof *d);
}

struct set_table {
  uint64_t *sets;  /* state i's NFA set at sets + i * nwords */
  int *slot;       /* hash slots: DFA state or -1 */
  unsigned mask;
  int nwords, n, cap;
};

static uint64_t hash_set(const uint64_t *s, int nwords)
{
  uint64_t h = 0x9e3779b97f4a7c15ULL;
  for (int w = 0; w < nwords; w++) {
    h ^= s[w];
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 32;
  }
  return h;
}

/* The DFA state of this NFA set; *added says whether it is new. */
static int lookup_set(struct set_table *t, struct dfa *d, const uint64_t *s, int *added)
{
  unsigned h = (unsigned)hash_set(s, t->nwords) & t->mask;
  size_t bytes = (size_t)t->nwords * sizeof *s;
  *added = 0;
  while (t->slot[h] >= 0) {
    if (!memcmp(t->sets + (size_t)t->slot[h] * t->nwords, s, bytes))
      return t->slot[h];
    h = (h + 1) & t->mask;
  }
  int id = dfa_add_state(d);
  if (id >= t->cap) {
    t->cap = 2 * t->cap;
    t->sets = bench_xrealloc(t->sets, (size_t)t->cap * bytes);
  }
  memcpy(t->sets + (size_t)id * t->nwords, s, bytes);
  t->slot[h] = id;
  t->n = id + 1;
  *added = 1;
  if ((unsigned)t->n * 2 > t->mask) { /* grow and rehash */
    unsigned nmask = t->mask * 2 + 1;
    int *ns = bench_xrealloc(NULL, (nmask + 1) * sizeof *ns);
    for (unsigned i = 0; i <= nmask; i++)
      ns[i] = -1;
    for (int i = 0; i < t->n; i++) {
      unsigned g = (unsigned)hash_set(t->sets + (size_t)i * t->nwords, t->nwords) & nmask;
      while (ns[g] >= 0)
        g = (g + 1) & nmask;
      ns[g] = i;
    }
    free(t->slot);
    t->slot = ns;
    t->mask = nmask;
  }
  return id;
}

void subset_construction(const struct nfa *a, struct dfa *d)
{
  struct set_table t;
  t.nwords = (a->n + 63) / 64;
  t.cap = 64;
  t.n = 0;
  t.sets = bench_xrealloc(NULL, (size_t)t.cap * t.nwords * sizeof *t.sets);
  t.mask = 255;
  t.slot = bench_xrealloc(NULL, (t.mask + 1) * sizeof *t.slot);
  for (unsigned i = 0; i <= t.mask; i++)
    t.slot[i] = -1;
  uint64_t *cur = bench_xrealloc(NULL, (size_t)t.nwords * sizeof *cur);
  uint64_t *next = bench_xrealloc(NULL, (size_t)t.nwords * sizeof *next);
  int *stack = bench_xrealloc(NULL, (size_t)a->n * sizeof *stack);
  int *movers = bench_xrealloc(NULL, (size_t)a->n * sizeof *movers);
  int added;

  memset(d, 0, sizeof *d);
  memset(cur, 0, (size_t)t.nwords * sizeof *cur);
  bit_set(cur, a->start);
  eps_closure(a, cur, t.nwords, stack);
  d->start = lookup_set(&t, d, cur, &added);
  for (int i = 0; i < d->n; i++) {
    memcpy(cur, t.sets + (size_t)i * t.nwords, (size_t)t.nwords * sizeof *cur);
    d->accept[i] = set_accept(a, cur, t.nwords);
    int nm = 0;
    for (int w = 0; w < t.nwords; w++)
      for (uint64_t m = cur[w]; m; m &= m - 1) {
        int s = w * 64 + __builtin_ctzll(m);
        if (a->st[s].set >= 0)
          movers[nm++] = s;
      }
    d->trans[i][0] = -1;
    for (int c = 1; c < ALPHA; c++) {
      int any = 0;
      memset(next, 0, (size_t)t.nwords * sizeof *next);
      for (int k = 0; k < nm; k++)
        if (set_has(a->sets[a->st[movers[k]].set], c)) {
          bit_set(next, a->st[movers[k]].out);
          any = 1;
        }
      if (!any) {
        d->trans[i][c] = -1;
        continue;
      }
      eps_closure(a, next, t.nwords, stack);
      int target = lookup_set(&t, d, next, &added); /* may move d->trans */
      d->trans[i][c] = target;
    }
  }
  free(t.sets);
  free(t.slot);
  free(cur);
  free(next);
  free(stack);
  free(movers);
}

/* ---- minimisation (Moore) -------------------------------------------------------------- */

/* Number the states' signature rows (class, class of each successor); returns the count. */
static int renumber(const int *sig, int n, int width, int *cls)
{
  unsigned mask = 1;
  while (mask < 2u * (unsigned)n)
    mask <<= 1;
  mask--;
  int *slot = bench_xrealloc(NULL, (mask + 1) * sizeof *slot);
  for (unsigned i = 0; i <= mask; i++)
    slot[i] = -1;
  int *rep = bench_xrealloc(NULL, (size_t)n * sizeof *rep);
  int count = 0;
  for (int s = 0; s < n; s++) {
    const int *row = sig + (size_t)s * width;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (int k = 0; k < width; k++) {
      h ^= (uint64_t)(uint32_t)row[k];
      h *= 0x100000001b3ULL;
    }
    unsigned g = (unsigned)(h ^ h >> 29) & mask;
    for (;;) {
      if (slot[g] < 0) {
        slot[g] = count;
        rep[count] = s;
        cls[s] = count++;
        break;
      }
      if (!memcmp(sig + (size_t)rep[slot[g]] * width, row, (size_t)width * sizeof *row)) {
        cls[s] = slot[g];
        break;
      }
      g = (g + 1) & mask;
    }
  }
  free(slot);
  free(rep);
  return count;
}

void minimize(const struct dfa *d, struct dfa *m)
{
  int n = d->n, width = ALPHA + 1;
  int *cls = bench_xrealloc(NULL, (size_t)n * sizeof *cls);
  int *sig = bench_xrealloc(NULL, (size_t)n * width * sizeof *sig);
  for (int s = 0; s < n; s++) {
    sig[(size_t)s * width] = d->accept[s];
    for (int c = 0; c < ALPHA; c++)
      sig[(size_t)s * width + 1 + c] = 0;
  }
  int count = renumber(sig, n, width, cls);
  for (;;) {
    for (int s = 0; s < n; s++) {
      int *row = sig + (size_t)s * width;
      row[0] = cls[s];
      for (int c = 0; c < ALPHA; c++) {
        int t = d->trans[s][c];
        row[1 + c] = t < 0 ? -1 : cls[t];
      }
    }
    int before = count;
    count = renumber(sig, n, width, cls);
    if (count == before)
      break;
  }
  memset(m, 0, sizeof *m);
  for (int i = 0; i < count; i++)
    dfa_add_state(m);
  for (int s = 0; s < n; s++) {
    int k = cls[s];
    m->accept[k] = d->accept[s];
    for (int c = 0; c < ALPHA; c++) {
      int t = d->trans[s][c];
      m->trans[k][c] = t < 0 ? -1 : cls[t];
    }
  }
  m->start = cls[d->start];
  free(cls);
  free(sig);
}

/* ---- scanners -------------------------------------------------------------------------- */

/* Longest-match scan with a DFA; counts[r] += tokens of rule r; returns unmatched chars. */
long dfa_scan(const struct dfa *d, const char *text, size_t n, long *counts)
{
  long errors = 0;
  size_t pos = 0;
  while (pos < n) {
    int state = d->start, last = -1;
    size_t i = pos, last_end = pos;
    while (i < n) {
      unsigned c = (unsigned char)text[i];
      if (c >= ALPHA)
        break;
      state = d->trans[state][c];
      if (state < 0)
        break;
      i++;
      if (d->accept[state] >= 0) {
        last = d->accept[state];
        last_end = i;
      }
    }
    if (last < 0) {
      errors++;
      pos++;
    } else {
      counts[last]++;
      pos = last_end;
    }
  }
  return errors;
}

/* The same scan by simulating the NFA on sets of states. */
long nfa_scan(const struct nfa *a, const char *text, size_t n, long *counts)
{
  int nwords = (a->n + 63) / 64;
  uint64_t *cur = bench_xrealloc(NULL, (size_t)nwords * sizeof *cur);
  uint64_t *next = bench_xrealloc(NULL, (size_t)nwords * sizeof *next);
  int *stack = bench_xrealloc(NULL, (size_t)a->n * sizeof *stack);
  long errors = 0;
  size_t pos = 0;
  while (pos < n) {
    memset(cur, 0, (size_t)nwords * sizeof *cur);
    bit_set(cur, a->start);
    eps_closure(a, cur, nwords, stack);
    int last = -1;
    size_t i = pos, last_end = pos;
    while (i < n) {
      unsigned c = (unsigned char)text[i];
      if (c >= ALPHA)
        break;
      int any = 0;
      memset(next, 0, (size_t)nwords * sizeof *next);
      for (int w = 0; w < nwords; w++)
        for (uint64_t m = cur[w]; m; m &= m - 1) {
          const struct nfa_state *s = &a->st[w * 64 + __builtin_ctzll(m)];
          if (s->set >= 0 && set_has(a->sets[s->set], (int)c)) {
            bit_set(next, s->out);
            any = 1;
          }
        }
      if (!any)
        break;
      eps_closure(a, next, nwords, stack);
      uint64_t *t = cur;
      cur = next;
      next = t;
      i++;
      int acc = set_accept(a, cur, nwords);
      if (acc >= 0) {
        last = acc;
        last_end = i;
      }
    }
    if (last < 0) {
      errors++;
      pos++;
    } else {
      counts[last]++;
      pos = last_end;
    }
  }
  free(cur);
  free(next);
  free(stack);
  return errors;
}

/* ---- input generator ------------------------------------------------------------------- */

static uint64_t rng_state = 0x1bd11bdaa9fc1a22ULL;

uint64_t rng_next(void)
{
  return bench_splitmix64(&rng_state);
}

static unsigned rnd(unsigned n)
{
  return (unsigned)(rng_next() >> 32) % n;
}

/* A random character of a string literal or char array. */
#define pick(chars) ((chars)[rnd((unsigned)sizeof(chars) - 1)])

static const char LOWER[] = "abcdefghijklmnopqrstuvwxyz";
static const char IDSTART[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_";
static const char IDCHAR[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789";
static const char DIGIT[] = "0123456789";
static const char HEXD[] = "0123456789abcdefABCDEF";
static const char TEXTC[] = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJ0123456789.,;:!?()[]{}<>=+-#%&";

/* Write a token of rule r at p; returns its length. */
size_t gen_token(int r, char *p)
{
  static const char *const op3[] = {"<<=", ">>=", "..."};
  static const char *const op2[] = {"++", "--", "->", "==", "!=", "<=", ">=", "&&", "||",
                                    "<<", ">>", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^="};
  size_t n = 0;
  if (r < NKEYWORDS) {
    n = strlen(rules[r].re);
    memcpy(p, rules[r].re, n);
    return n;
  }
  switch (r) {
  case R_IDENT: {
    unsigned len = 1 + rnd(10);
    p[n++] = pick(IDSTART);
    while (n < len)
      p[n] = n < 3 ? pick(LOWER) : pick(IDCHAR), n++;
    for (int k = 0; k < NKEYWORDS; k++)
      if (strlen(rules[k].re) == n && !memcmp(rules[k].re, p, n)) {
        p[n++] = '_';
        break;
      }
    return n;
  }
  case R_HEX:
    p[n++] = '0';
    p[n++] = rnd(2) ? 'x' : 'X';
    for (unsigned k = 1 + rnd(8); k > 0; k--)
      p[n++] = pick(HEXD);
    return n;
  case R_FLOAT:
    for (unsigned k = 1 + rnd(4); k > 0; k--)
      p[n++] = pick(DIGIT);
    if (rnd(4)) {
      p[n++] = '.';
      for (unsigned k = rnd(4); k > 0; k--)
        p[n++] = pick(DIGIT);
      if (rnd(3))
        return n;
    }
    p[n++] = rnd(2) ? 'e' : 'E';
    if (rnd(2))
      p[n++] = rnd(2) ? '+' : '-';
    for (unsigned k = 1 + rnd(2); k > 0; k--)
      p[n++] = pick(DIGIT);
    return n;
  case R_INT:
    for (unsigned k = 1 + rnd(6); k > 0; k--)
      p[n++] = pick(DIGIT);
    if (rnd(5) == 0)
      p[n++] = pick("uUlL");
    return n;
  case R_STRING:
    p[n++] = '"';
    for (unsigned k = rnd(24); k > 0; k--) {
      if (rnd(12) == 0) {
        p[n++] = '\\';
        p[n++] = pick("nt\"\\0'");
      } else {
        p[n++] = pick(TEXTC);
      }
    }
    p[n++] = '"';
    return n;
  case R_CHAR:
    p[n++] = '\'';
    if (rnd(4) == 0) {
      p[n++] = '\\';
      p[n++] = pick("nt'\\0\"");
    } else {
      p[n++] = pick(IDCHAR);
    }
    p[n++] = '\'';
    return n;
  case R_COMMENT:
    p[n++] = '/';
    p[n++] = '*';
    for (unsigned k = rnd(60); k > 0; k--) {
      char c = rnd(10) == 0 ? '*' : rnd(30) == 0 ? '\n' : rnd(20) == 0 ? '/' : pick(TEXTC);
      if (c == '/' && p[n - 1] == '*' && n > 2)
        c = 'x';
      p[n++] = c;
    }
    for (unsigned k = 1 + (rnd(4) == 0); k > 0; k--)
      p[n++] = '*';
    p[n++] = '/';
    return n;
  case R_LCOMMENT:
    p[n++] = '/';
    p[n++] = '/';
    for (unsigned k = rnd(50); k > 0; k--)
      p[n++] = pick(TEXTC);
    return n;
  case R_OP3:
    memcpy(p, op3[rnd(3)], 3);
    return 3;
  case R_OP2: {
    const char *o = op2[rnd(sizeof op2 / sizeof op2[0])];
    p[0] = o[0];
    p[1] = o[1];
    return 2;
  }
  case R_OP1:
    p[0] = pick("-+*/%<>=!&|^~?:.");
    return 1;
  case R_PUNCT:
    p[0] = pick("(){};,[]");
    return 1;
  }
  return 0;
}

/* Fill text[0..cap) with tokens separated by white space (at most cap - 160 used); counts
 * the tokens per rule; *sample_end = the first token start at or after sample. */
size_t gen_text(char *text, size_t cap, long *counts, size_t sample, size_t *sample_end)
{
  /* weights per rule: keywords rare, identifiers and operators common */
  static int weight[NRULES];
  int total = 0;
  for (int r = 0; r < NRULES; r++) {
    weight[r] = r < NKEYWORDS ? 2 : r == R_IDENT ? 60 : r == R_OP1 || r == R_PUNCT ? 30
              : r == R_WS ? 0 : r == R_COMMENT || r == R_LCOMMENT ? 3 : 10;
    total += weight[r];
  }
  size_t n = 0;
  *sample_end = 0;
  while (n + 160 < cap) {
    if (!*sample_end && n >= sample)
      *sample_end = n;
    int x = (int)rnd((unsigned)total), r = 0;
    while (x >= weight[r])
      x -= weight[r++];
    n += gen_token(r, text + n);
    counts[r]++;
    /* the separator; after a line comment it must start with a newline */
    if (r == R_LCOMMENT || rnd(12) == 0)
      text[n++] = '\n';
    else
      text[n++] = rnd(8) == 0 ? '\t' : ' ';
    if (rnd(6) == 0)
      text[n++] = ' ';
    counts[R_WS]++;
  }
  if (!*sample_end)
    *sample_end = n;
  return n;
}

/* ---- driver ---------------------------------------------------------------------------- */

static int same_dfa(const struct dfa *a, const struct dfa *b)
{
  return a->n == b->n && a->start == b->start &&
         !memcmp(a->accept, b->accept, (size_t)a->n * sizeof *a->accept) &&
         !memcmp(a->trans, b->trans, (size_t)a->n * sizeof *a->trans);
}

int main(int argc, char **argv)
{
  int small = bench_init(argc, argv, "lexgen");
  int builds = small ? 3 : 100, passes = small ? 2 : 30;
  size_t text_cap = small ? (size_t)256 << 10 : (size_t)8 << 20;
  size_t sample = small ? (size_t)32 << 10 : (size_t)256 << 10;

  char why[200];
  const char *fail = NULL;
  static struct nfa nfa;
  struct dfa dfa = {0}, min = {0};
  for (int b = 0; b < builds && !fail; b++) {
    struct dfa d2, m2;
    const char *err = build_nfa(&nfa);
    if (err) {
      snprintf(why, sizeof why, "regular expression error: %s", err);
      fail = why;
      break;
    }
    subset_construction(&nfa, &d2);
    minimize(&d2, &m2);
    if (b == 0) {
      dfa = d2;
      min = m2;
    } else {
      if (!same_dfa(&dfa, &d2) || !same_dfa(&min, &m2))
        fail = "a rebuild gave a different DFA";
      dfa_free(&d2);
      dfa_free(&m2);
    }
  }
  if (!fail && min.n > dfa.n)
    fail = "the minimal DFA has more states than the unminimised one";

  long want[NRULES] = {0}, got[NRULES] = {0};
  long s_min[NRULES] = {0}, s_dfa[NRULES] = {0}, s_nfa[NRULES] = {0};
  char *text = NULL;
  if (!fail) {
    text = bench_xrealloc(NULL, text_cap);
    size_t sample_end;
    size_t n = gen_text(text, text_cap, want, sample, &sample_end);
    long e1 = 0;
    for (int k = 0; k < passes; k++)
      e1 += dfa_scan(&min, text, n, got);
    long e2 = dfa_scan(&min, text, sample_end, s_min);
    long e3 = dfa_scan(&dfa, text, sample_end, s_dfa);
    long e4 = nfa_scan(&nfa, text, sample_end, s_nfa);
    if (e1 || e2 || e3 || e4) {
      snprintf(why, sizeof why, "unmatched characters (%ld, %ld, %ld, %ld)", e1, e2, e3, e4);
      fail = why;
    }
    for (int r = 0; r < NRULES && !fail; r++) {
      if (got[r] != passes * want[r]) {
        snprintf(why, sizeof why, "rule %s: %ld tokens scanned in %d passes, %ld generated",
                 rules[r].name, got[r], passes, want[r]);
        fail = why;
      } else if (s_min[r] != s_nfa[r] || s_dfa[r] != s_nfa[r]) {
        snprintf(why, sizeof why, "rule %s on the sample: NFA %ld, DFA %ld, minimal DFA %ld",
                 rules[r].name, s_nfa[r], s_dfa[r], s_min[r]);
        fail = why;
      }
    }
  }
  uint64_t digest = BENCH_FNV_BASIS;
  long vals[2 + NRULES];
  vals[0] = dfa.n;
  vals[1] = min.n;
  for (int r = 0; r < NRULES; r++)
    vals[2 + r] = got[r];
  for (int k = 0; k < 2 + NRULES; k++)
    digest = bench_fnv1a_u64(digest, (uint64_t)vals[k]);
  if (getenv("LEXGEN_DEBUG"))
    fprintf(stderr, "nfa %d states, %d sets; dfa %d, minimal %d\n", nfa.n, nfa.nsets, dfa.n,
            min.n);
  free(text);
  dfa_free(&dfa);
  dfa_free(&min);
  return bench_report(fail, digest);
}
/* SPDX-License-Identifier: GPL-3.0-or-later */
