/* SPDX-License-Identifier: MIT */
/* identity.c - who this process is, as views and snapshots record it:
 * the executable, the command line, OSP_OPTIONS as obeyed, the pid, a
 * random instance id (a reused pid is told apart) and the start time.
 *
 * Why a module: the publisher (publish.c) puts it into the segment's
 * header and every view, and snapshot.c into every snapshot file, with or
 * without publishing.  It is read once at start-up (osp_identity_init,
 * before any runtime thread exists) and renewed in a fork child (a new
 * pid, instance and start time; the same program, arguments and options),
 * so readers on other threads see fixed values.
 */
#define _GNU_SOURCE
#include "output/output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#define ARGS_MAX 4096

static char program[OSP_PATH_MAX], args[ARGS_MAX], options[ARGS_MAX];
static pid_t pid;
static uint64_t instance_id, start_ns;

static uint64_t
realtime_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_REALTIME, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* Read up to SIZE - 1 bytes of FILE into BUF (NUL-terminated); the
   bytes read, or -1. */
static ssize_t
read_small (const char *file, char *buf, size_t size)
{
  int fd = open (file, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  size_t n = 0;
  while (n + 1 < size)
    {
      ssize_t r = read (fd, buf + n, size - 1 - n);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        break;
      n += (size_t) r;
    }
  close (fd);
  buf[n] = '\0';
  return (ssize_t) n;
}

static uint64_t
random_id (void)
{
  uint64_t id = 0;
  if (getrandom (&id, sizeof id, GRND_NONBLOCK) != (ssize_t) sizeof id)
    {
      /* splitmix64 of the seed, the time and the pid */
      id = osp_seed ^ realtime_ns () ^ ((uint64_t) getpid () << 32);
      id += 0x9e3779b97f4a7c15u;
      id = (id ^ (id >> 30)) * 0xbf58476d1ce4e5b9u;
      id = (id ^ (id >> 27)) * 0x94d049bb133111ebu;
      id ^= id >> 31;
    }
  return id ? id : 1;
}

void
osp_identity_init (void)
{
  ssize_t n = readlink ("/proc/self/exe", program, sizeof program - 1);
  program[n > 0 ? n : 0] = '\0';
  n = read_small ("/proc/self/cmdline", args, sizeof args);
  /* Arguments are NUL-terminated: spaces between them, none at the end. */
  while (n > 0 && args[n - 1] == '\0')
    n--;
  for (ssize_t i = 0; i < n; i++)
    if (args[i] == '\0')
      args[i] = ' ';
  args[n > 0 ? n : 0] = '\0';
  /* As obeyed: "" in a privileged process, which ignores it (options.c). */
  snprintf (options, sizeof options, "%s", osp_options_env ());
  osp_identity_fork_child ();
}

void
osp_identity_fork_child (void)
{
  pid = getpid ();
  instance_id = random_id ();
  start_ns = realtime_ns ();
}

void
osp_identity_run (struct osp_view_run *run, int exited)
{
  memset (run, 0, sizeof *run);
  run->pid = pid;
  run->start_ns = start_ns;
  run->instance_id = instance_id;
  run->time_ns = realtime_ns ();
  run->program = program;
  run->args = args;
  run->options = options;
  run->opts = &osp_opts;
  run->exited = exited;
}
