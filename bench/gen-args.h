/* gen-args.h - what bench's module generators (many-gen.c, chain-gen.c)
 * share: reading a count from the command line. */
#ifndef BENCH_GEN_ARGS_H
#define BENCH_GEN_ARGS_H

#include <errno.h>
#include <stdlib.h>

/* S as a count in [1, max], or 0 if it is not one. */
static long count(const char *s, long max) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < 1 || v > max)
    return 0;
  return v;
}

#endif
