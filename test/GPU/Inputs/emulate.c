/* emulate.c - runs a kernel of the device LLVM IR (coro-translate
 * --emit=llvm) on the host, one thread after the other, so that the device
 * path's code (direct dispatch, the resume loop, arena frames) runs where
 * there is no GPU. emulate.sh renames the NVVM special registers and
 * vprintf to the functions below and links the IR with this file.
 *
 *   emulated GRID BLOCK ARENA_BYTES   (ARENA_BYTES 0: no arena)
 *
 * calls kernel(out) for every thread of a 1-D grid of 1-D blocks, then
 * prints out[0 .. GRID * BLOCK - 1] (i64), one per line, as coro-gpu-run
 * does. A trap (llvm.trap) ends the process with SIGILL. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned tid, ctaid, ntid, nctaid;

#define SREG(name, value)                                                      \
  unsigned emu_sreg_##name(void) { return value; }
SREG(tid_x, tid)
SREG(tid_y, 0)
SREG(tid_z, 0)
SREG(ctaid_x, ctaid)
SREG(ctaid_y, 0)
SREG(ctaid_z, 0)
SREG(ntid_x, ntid)
SREG(ntid_y, 1)
SREG(ntid_z, 1)
SREG(nctaid_x, nctaid)
SREG(nctaid_y, 1)
SREG(nctaid_z, 1)

/* CUDA's vprintf(format, argument buffer): the device code's messages
 * have no arguments. */
int emu_vprintf(const char *format, void *args) {
  (void)args;
  int r = fputs(format, stdout);
  fflush(stdout); /* a trap may follow */
  return r;
}

void kernel(int64_t *out);
/* the arena's globals (arena.h), present only when a coroutine uses it */
extern int64_t __coro_arena __attribute__((weak));
extern int64_t __coro_arena_size __attribute__((weak));

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s GRID BLOCK ARENA_BYTES\n", argv[0]);
    return 2;
  }
  nctaid = (unsigned)atoi(argv[1]);
  ntid = (unsigned)atoi(argv[2]);
  long arena = atol(argv[3]);
  unsigned n = nctaid * ntid;
  if (arena > 0 && &__coro_arena) {
    __coro_arena = (int64_t)(intptr_t)calloc(n, (size_t)arena);
    __coro_arena_size = arena;
  }
  int64_t *out = calloc(n, sizeof *out);
  if (!out)
    return 2;
  fflush(stdout);
  for (ctaid = 0; ctaid < nctaid; ++ctaid)
    for (tid = 0; tid < ntid; ++tid)
      kernel(out);
  for (unsigned i = 0; i < n; ++i)
    printf("%lld\n", (long long)out[i]);
  return 0;
}
