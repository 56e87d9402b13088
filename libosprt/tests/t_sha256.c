/* SPDX-License-Identifier: MIT */
/* t_sha256.c - SHA-256 (libosprt/sha256.c) against the known answers of
 * FIPS 180-4's examples (NIST "Example Algorithm" SHA256.pdf and the
 * long-message vector of FIPS 180-2 appendix B.3), plus every split of a
 * message across update calls and the lengths around the padding's
 * block boundary (55, 56, 63, 64 bytes) against one-call digests made
 * with coreutils' sha256sum when this test was written. */
#include <stdio.h>
#include <string.h>

#include "sha256.h"

static int failures;

static void
hex (const unsigned char *d, char *out)
{
  for (int i = 0; i < OSP_SHA256_BYTES; i++)
    sprintf (out + 2 * i, "%02x", d[i]);
}

static void
check (const char *what, const unsigned char *d, const char *want)
{
  char got[2 * OSP_SHA256_BYTES + 1];
  hex (d, got);
  if (strcmp (got, want) != 0)
    {
      printf ("FAIL %s: got %s, want %s\n", what, got, want);
      failures++;
    }
}

int
main (void)
{
  unsigned char d[OSP_SHA256_BYTES];
  static const struct { const char *msg, *want; } kat[] = {
    { "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
    { "abc",
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
    { "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
    { "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
      "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1" },
  };
  for (size_t i = 0; i < sizeof kat / sizeof kat[0]; i++)
    {
      osp_sha256 (kat[i].msg, strlen (kat[i].msg), d);
      check (kat[i].msg, d, kat[i].want);
      /* the same message in every pair of pieces */
      size_t n = strlen (kat[i].msg);
      for (size_t cut = 0; cut <= n; cut++)
        {
          struct osp_sha256 c;
          osp_sha256_init (&c);
          osp_sha256_update (&c, kat[i].msg, cut);
          osp_sha256_update (&c, kat[i].msg + cut, n - cut);
          osp_sha256_final (&c, d);
          check ("split", d, kat[i].want);
        }
    }
  /* one million 'a' (FIPS 180-2 B.3), fed in 1000-byte pieces */
  {
    static char a[1000];
    memset (a, 'a', sizeof a);
    struct osp_sha256 c;
    osp_sha256_init (&c);
    for (int i = 0; i < 1000; i++)
      osp_sha256_update (&c, a, sizeof a);
    osp_sha256_final (&c, d);
    check ("1e6 x a", d,
           "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  }
  /* the padding's edge cases: N x 'x' (printf 'x%.0s' $(seq N) |
     sha256sum) */
  static const struct { size_t n; const char *want; } edge[] = {
    { 55,
      "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072" },
    { 56,
      "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e" },
    { 63,
      "75220b47218278e656f2013bb8f0c455a25eaf01e86c64924e9d48d89776d6f2" },
    { 64,
      "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c" },
  };
  for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
    {
      char x[64];
      memset (x, 'x', sizeof x);
      osp_sha256 (x, edge[i].n, d);
      check ("edge", d, edge[i].want);
    }
  if (failures == 0)
    printf ("ok: sha256 known answers\n");
  return failures != 0;
}
