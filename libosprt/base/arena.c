/* SPDX-License-Identifier: MIT */
/* arena.c - memory the runtime takes without malloc, within a budget.
 *
 * Per-thread arenas of mmap'ed chunks (zeroed memory, no malloc, so a
 * thread's first hook inside a signal handler that interrupted malloc
 * cannot deadlock in the allocator), the bounded tables of the collectors
 * (one MAP_NORESERVE mapping each), and the address-space budget that
 * every optional reservation draws on under `ulimit -v' (doc/osp.md,
 * Safety: "Stack and address space").
 */
#define _GNU_SOURCE
#include "base/base.h"

#include <stdio.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

/* ---- arena ----------------------------------------------------------- */

struct osp_map
{
  struct osp_map *next;
  size_t size;
};

#define ARENA_CHUNK (64 * 1024)

void *
osp_arena_alloc_held (struct osp_arena *a, size_t size)
{
  size = (size + 15) & ~(size_t) 15;
  if (size > a->left)
    {
      /* Big requests get their own mapping so a chunk is never wasted. */
      size_t hdr = (sizeof (struct osp_map) + 15) & ~(size_t) 15;
      size_t len = size + hdr > ARENA_CHUNK / 4 ? size + hdr : ARENA_CHUNK;
      void *m = mmap (NULL, len, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (m == MAP_FAILED)
        return NULL;
      struct osp_map *map = m;
      map->size = len;
      map->next = a->maps;
      a->maps = map;
      if (len != ARENA_CHUNK)
        return (char *) m + hdr;
      a->cur = (char *) m + hdr;
      a->left = len - hdr;
    }
  void *p = a->cur;
  a->cur += size;
  a->left -= size;
  return p;
}

/* With signals held: a handler that leaves a hook by longjmp must not
   leave cur and left disagreeing (the next allocation would overrun the
   chunk).  Rare: a thread's states, a function's first counters. */
void *
osp_arena_alloc (struct osp_arena *a, size_t size)
{
  osp_signals_hold ();
  void *p = osp_arena_alloc_held (a, size);
  osp_signals_release ();
  return p;
}

void
osp_arena_release (struct osp_arena *a)
{
  struct osp_map *m = a->maps;
  while (m)
    {
      struct osp_map *next = m->next;
      munmap (m, m->size);
      m = next;
    }
}

/* ---- address space --------------------------------------------------- */

/* Under `ulimit -v' (RLIMIT_AS) every byte the runtime maps is a byte the
   program cannot map: MAP_NORESERVE tables and untouched thread stacks
   count as much as used memory, and a program that runs plain under the
   limit failed its own pthread_create with osp (4 MB of path table, 12 MB
   of publish buffers, 8 MB for each runtime thread's default stack).  So
   with a limit, the runtime's optional reservations - the path and exact
   tables, the forest streams, the publish buffers, its threads' stacks -
   share a budget of a sixteenth of the address space left under the limit
   when the runtime starts, and one that does not fit fails as if the
   kernel had refused it: its part shrinks or stops with one line, the
   program runs on with the rest.  Without a limit there is no budget.  */
static uint64_t budget = UINT64_MAX;
static atomic_uint_least64_t reserved;

/* The process's mapped bytes now (VmSize), or 0 if unknown. */
static uint64_t
vm_size (void)
{
  FILE *f = fopen ("/proc/self/statm", "re");
  if (f == NULL)
    return 0;
  unsigned long pages = 0;
  int ok = fscanf (f, "%lu", &pages) == 1;
  fclose (f);
  return ok ? (uint64_t) pages * (uint64_t) sysconf (_SC_PAGESIZE) : 0;
}

void
osp_budget_init (void)
{
  struct rlimit r;
  if (getrlimit (RLIMIT_AS, &r) != 0 || r.rlim_cur == RLIM_INFINITY)
    return;
  uint64_t used = vm_size ();
  budget = r.rlim_cur > used ? (r.rlim_cur - used) / 16 : 0;
}

int
osp_reserve (size_t bytes)
{
  uint64_t before = atomic_fetch_add (&reserved, bytes);
  if (before + bytes <= budget && before + bytes >= before)
    return 0;
  atomic_fetch_sub (&reserved, bytes);
  return -1;
}

void
osp_unreserve (size_t bytes)
{
  atomic_fetch_sub (&reserved, bytes);
}


uint32_t *
osp_map_table (const char *what, size_t *bytes, uint64_t *nslots)
{
  /* Under an address space limit, the largest size the budget (above)
     affords, halving down to the smallest size the option accepts. */
  size_t want = *bytes, len = want;
  void *m = MAP_FAILED;
  for (;;)
    {
      if (osp_reserve (len) == 0)
        {
          m = mmap (NULL, len, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
          if (m != MAP_FAILED)
            break;
          osp_unreserve (len);
        }
      if (len / 2 < OSP_MIN_TABLE_BYTES)
        return NULL; /* the runtime does not start: runtime.c's one line */
      len /= 2;
    }
  if (len != want)
    osp_warn ("osp: ulimit -v: the %s has %zu bytes, not %zu; the program "
              "runs, profiled within them", what, len, want);
  *bytes = len;
  uint64_t n = 2;
  while (n * 2 * sizeof (uint32_t) <= len / 8)
    n *= 2;
  *nslots = n;
  return m;
}
