/* Program for tests/abi-mismatch.sh.  Built instrumented with -DCASE=N (or plain with
   -DPLAIN=1): hands the runtime a record of ABI version 99 and then computes as usual.
     CASE 1: __osp_register_module (99, ...) with a record that says abi_version 99;
     CASE 2: __osp_register_module (OSP_ABI_VERSION, ...) with a record that says 99;
   after that the block hook is called for the refused record (must be ignored). */
#include <stdio.h>
#include <stdint.h>
#ifndef PLAIN
#include <osp/abi.h>

static const uint32_t bad_cfg[] = { 1, 1, 1, 1, 0xffffffffu, 0 };
static struct osp_fn_record bad[1] = {
  { OSP_FN_MAGIC, 99, 0, 1, 1, sizeof bad_cfg / sizeof bad_cfg[0],
    "bogus_abi99_function", "bogus.c", bad_cfg }
};
#endif

static __attribute__((noinline)) long work (int n)
{
  long s = 0;
  for (int i = 1; i <= n; i++)
    s += (long) i * i;
  return s;
}

int main (void)
{
#ifndef PLAIN
  __osp_register_module (CASE == 1 ? 99u : OSP_ABI_VERSION, &bad[0], &bad[1]);
  __osp_block_hook (&bad[0], 0);
#endif
  printf ("work %ld\n", work (100));
  return 0;
}
/* SPDX-License-Identifier: GPL-3.0-or-later */
