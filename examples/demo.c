/* demo.c - a small self-checking program for trying osp.
 *
 * It generates a pseudo-random text, counts its words with a tokenizer and a hash table, sums the
 * numbers in it, and runs a tiny bytecode interpreter that counts primes.  Each part has its own
 * clearly different hot path (a character-classification loop, hash probing, a switch-dispatch
 * loop), so osp's exit report has something to show.  Every result is checked against a second,
 * independent computation; the program prints one result line and exits 0 only if all agree.
 *
 *   make demo                      (builds it with the uninstalled plugin and runtime, runs it)
 *   gcc -O2 $(pkg-config --cflags --libs osp) demo.c -o demo && ./demo   (installed osp)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- text generation */

static const char *const vocabulary[] = {
  "the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with", "be",
  "by", "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have",
  "an", "had", "they", "you", "were", "their", "one", "all", "we", "can", "her", "has", "there",
  "been", "if", "more", "when", "will", "would", "who", "so", "no", "profile", "path", "block",
  "hot", "loop", "branch", "compiler", "counter", "sample", "thread", "report",
};
#define NVOCAB ((int) (sizeof vocabulary / sizeof vocabulary[0]))

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint32_t
rng (void)
{
  /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t) ((rng_state * 0x2545f4914f6cdd1du) >> 32);
}

/* A Zipf-like choice: small indices are much more frequent. */
static int
pick_word (void)
{
  uint32_t r = rng () % 1000u;
  int i = 0;
  while (i < NVOCAB - 1 && r < 1000u - 1000u / (unsigned) (i + 2))
    {
      r = rng () % 1000u;
      i++;
    }
  return i;
}

struct text
{
  char *buf;
  size_t len;
  long expected_words[NVOCAB];
  long expected_numbers;
  long expected_number_sum;
};

static void
generate_text (struct text *t, size_t want)
{
  size_t cap = want + 64;
  t->buf = malloc (cap);
  if (!t->buf)
    {
      perror ("malloc");
      exit (2);
    }
  t->len = 0;
  memset (t->expected_words, 0, sizeof t->expected_words);
  t->expected_numbers = t->expected_number_sum = 0;
  while (t->len < want)
    {
      uint32_t kind = rng () % 16u;
      char tmp[32];
      int n;
      if (kind == 0)
        {
          int v = (int) (rng () % 10000u);
          n = snprintf (tmp, sizeof tmp, "%d", v);
          t->expected_numbers++;
          t->expected_number_sum += v;
        }
      else
        {
          int w = pick_word ();
          const char *s = vocabulary[w];
          n = (int) strlen (s);
          memcpy (tmp, s, (size_t) n);
          if (kind == 1) /* capitalised, as at the start of a sentence */
            tmp[0] = (char) (tmp[0] - 'a' + 'A');
          t->expected_words[w]++;
        }
      memcpy (t->buf + t->len, tmp, (size_t) n);
      t->len += (size_t) n;
      switch (rng () % 12u)
        {
        case 0: t->buf[t->len++] = ','; t->buf[t->len++] = ' '; break;
        case 1: t->buf[t->len++] = '.'; t->buf[t->len++] = '\n'; break;
        case 2: t->buf[t->len++] = ' '; t->buf[t->len++] = ' '; break;
        default: t->buf[t->len++] = ' '; break;
        }
    }
  t->buf[t->len] = '\0';
}

/* ---------------------------------------------------------------- hash table */

struct entry
{
  char word[24];
  uint32_t hash;
  long count;
};

struct table
{
  struct entry *slots;
  size_t cap, used;
};

static uint32_t
hash_word (const char *s, size_t n)
{
  uint32_t h = 2166136261u; /* FNV-1a */
  for (size_t i = 0; i < n; i++)
    {
      h ^= (unsigned char) s[i];
      h *= 16777619u;
    }
  return h;
}

static void table_add (struct table *t, const char *w, size_t n, uint32_t h, long count);

static void
table_grow (struct table *t)
{
  struct table bigger = { calloc (t->cap * 2, sizeof (struct entry)), t->cap * 2, 0 };
  if (!bigger.slots)
    {
      perror ("calloc");
      exit (2);
    }
  for (size_t i = 0; i < t->cap; i++)
    if (t->slots[i].count)
      table_add (&bigger, t->slots[i].word, strlen (t->slots[i].word), t->slots[i].hash,
                 t->slots[i].count);
  free (t->slots);
  *t = bigger;
}

static void
table_add (struct table *t, const char *w, size_t n, uint32_t h, long count)
{
  if (2 * (t->used + 1) > t->cap)
    table_grow (t);
  size_t i = h & (t->cap - 1);
  for (;;)
    {
      struct entry *e = &t->slots[i];
      if (e->count == 0)
        {
          memcpy (e->word, w, n);
          e->word[n] = '\0';
          e->hash = h;
          e->count = count;
          t->used++;
          return;
        }
      if (e->hash == h && strncmp (e->word, w, n) == 0 && e->word[n] == '\0')
        {
          e->count += count;
          return;
        }
      i = (i + 1) & (t->cap - 1);
    }
}

static long
table_get (const struct table *t, const char *w)
{
  size_t n = strlen (w);
  uint32_t h = hash_word (w, n);
  for (size_t i = h & (t->cap - 1);; i = (i + 1) & (t->cap - 1))
    {
      const struct entry *e = &t->slots[i];
      if (e->count == 0)
        return 0;
      if (e->hash == h && strcmp (e->word, w) == 0)
        return e->count;
    }
}

/* ---------------------------------------------------------------- tokenizer */

enum cclass { C_SPACE, C_ALPHA, C_DIGIT, C_PUNCT };

static enum cclass
classify (unsigned char c)
{
  if (c >= 'a' && c <= 'z')
    return C_ALPHA;
  if (c >= 'A' && c <= 'Z')
    return C_ALPHA;
  if (c >= '0' && c <= '9')
    return C_DIGIT;
  if (c == ' ' || c == '\n' || c == '\t')
    return C_SPACE;
  return C_PUNCT;
}

struct counts
{
  long words, numbers, number_sum, punct;
};

static void
count_words (const char *s, size_t len, struct table *t, struct counts *c)
{
  size_t i = 0;
  while (i < len)
    {
      enum cclass k = classify ((unsigned char) s[i]);
      if (k == C_ALPHA)
        {
          char w[24];
          size_t n = 0;
          while (i < len && classify ((unsigned char) s[i]) == C_ALPHA && n < sizeof w - 1)
            {
              char ch = s[i++];
              w[n++] = (char) (ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
            }
          table_add (t, w, n, hash_word (w, n), 1);
          c->words++;
        }
      else if (k == C_DIGIT)
        {
          long v = 0;
          while (i < len && classify ((unsigned char) s[i]) == C_DIGIT)
            v = v * 10 + (s[i++] - '0');
          c->numbers++;
          c->number_sum += v;
        }
      else
        {
          if (k == C_PUNCT)
            c->punct++;
          i++;
        }
    }
}

/* ---------------------------------------------------------------- bytecode interpreter */

enum op { PUSH, LOAD, STORE, ADD, SUB, MOD, MUL, JZ, JLT, JMP, HALT };
struct insn
{
  enum op op;
  int arg;
};

/* Counts the primes below vars[0] by trial division; leaves the count in vars[1]. */
static const struct insn prime_program[] = {
  /* 0 */ { PUSH, 2 }, { STORE, 2 },                   /* n = 2 */
  /* 2 */ { LOAD, 2 }, { LOAD, 0 }, { JLT, 6 }, { HALT, 0 },
  /* 6 */ { PUSH, 2 }, { STORE, 3 },                   /* d = 2 */
  /* 8 */ { LOAD, 3 }, { LOAD, 3 }, { MUL, 0 }, { LOAD, 2 }, { PUSH, 1 }, { ADD, 0 },
  /* 14 */ { JLT, 16 }, { JMP, 26 },                   /* d*d < n+1 ? test : prime */
  /* 16 */ { LOAD, 2 }, { LOAD, 3 }, { MOD, 0 }, { JZ, 30 },  /* n % d == 0: composite */
  /* 20 */ { LOAD, 3 }, { PUSH, 1 }, { ADD, 0 }, { STORE, 3 }, { JMP, 8 }, { HALT, 0 },
  /* 26 */ { LOAD, 1 }, { PUSH, 1 }, { ADD, 0 }, { STORE, 1 },  /* primes++ */
  /* 30 */ { LOAD, 2 }, { PUSH, 1 }, { ADD, 0 }, { STORE, 2 }, { JMP, 2 },
};

static long
run (const struct insn *code, long *vars)
{
  long stack[16];
  int sp = 0, pc = 0;
  long steps = 0;
  for (;;)
    {
      const struct insn *in = &code[pc++];
      steps++;
      switch (in->op)
        {
        case PUSH: stack[sp++] = in->arg; break;
        case LOAD: stack[sp++] = vars[in->arg]; break;
        case STORE: vars[in->arg] = stack[--sp]; break;
        case ADD: sp--; stack[sp - 1] += stack[sp]; break;
        case SUB: sp--; stack[sp - 1] -= stack[sp]; break;
        case MUL: sp--; stack[sp - 1] *= stack[sp]; break;
        case MOD: sp--; stack[sp - 1] %= stack[sp]; break;
        case JZ: if (stack[--sp] == 0) pc = in->arg; break;
        case JLT: sp -= 2; if (stack[sp] < stack[sp + 1]) pc = in->arg; break;
        case JMP: pc = in->arg; break;
        case HALT: return steps;
        }
    }
}

static long
count_primes_directly (long limit)
{
  long primes = 0;
  for (long n = 2; n < limit; n++)
    {
      long d = 2;
      while (d * d <= n && n % d != 0)
        d++;
      primes += d * d > n;
    }
  return primes;
}

/* ---------------------------------------------------------------- main */

static int failures;

static void
check (int ok, const char *what, long got, long want)
{
  if (!ok)
    {
      fprintf (stderr, "demo: FAILED: %s: got %ld, expected %ld\n", what, got, want);
      failures++;
    }
}

int
main (int argc, char **argv)
{
  size_t text_bytes = 4u << 20;
  long prime_limit = 60000;
  if (argc > 1)
    {
      double scale = atof (argv[1]);
      if (!(scale > 0 && scale <= 1000))
        {
          fprintf (stderr, "usage: %s [SCALE]   (SCALE > 0 multiplies the work, default 1)\n",
                   argv[0]);
          return 2;
        }
      text_bytes = (size_t) (text_bytes * scale);
      prime_limit = (long) (prime_limit * scale);
    }

  struct text text;
  generate_text (&text, text_bytes);

  struct table table = { calloc (16, sizeof (struct entry)), 16, 0 };
  struct counts counts = { 0, 0, 0, 0 };
  if (!table.slots)
    {
      perror ("calloc");
      return 2;
    }
  count_words (text.buf, text.len, &table, &counts);

  long total_expected = 0;
  int top = 0;
  for (int w = 0; w < NVOCAB; w++)
    {
      long got = table_get (&table, vocabulary[w]);
      check (got == text.expected_words[w], vocabulary[w], got, text.expected_words[w]);
      total_expected += text.expected_words[w];
      if (got > table_get (&table, vocabulary[top]))
        top = w;
    }
  check (counts.words == total_expected, "words", counts.words, total_expected);
  check ((long) table.used == NVOCAB, "distinct words", (long) table.used, NVOCAB);
  check (counts.numbers == text.expected_numbers, "numbers", counts.numbers,
         text.expected_numbers);
  check (counts.number_sum == text.expected_number_sum, "number sum", counts.number_sum,
         text.expected_number_sum);

  long vars[4] = { prime_limit, 0, 0, 0 };
  long steps = run (prime_program, vars);
  long primes = count_primes_directly (prime_limit);
  check (vars[1] == primes, "primes", vars[1], primes);

  printf ("demo: %s: %ld words (%zu distinct, most frequent \"%s\" x%ld), %ld numbers summing to "
          "%ld, %ld primes below %ld in %ld bytecode steps\n",
          failures ? "FAILED" : "ok", counts.words, table.used, vocabulary[top],
          table_get (&table, vocabulary[top]), counts.numbers, counts.number_sum, vars[1],
          prime_limit, steps);
  free (table.slots);
  free (text.buf);
  return failures ? 1 : 0;
}
/* SPDX-License-Identifier: MIT */
