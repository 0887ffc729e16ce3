/* drive.c - a C host that drives a coroutine compiled ahead of time, through
 * coro's runtime alone (coro-runtime/Runtime.h, pkg-config coro-runtime:
 * no MLIR, no LLVM at run time).
 *
 *   ./host-aot fib.mlir --abi=retcon --no-run -o fib    leaves fib.o
 *   make drive OBJ=fib.o                                links ./drive
 *   ./drive                                             prints 8855
 *
 * It does from C what fib.mlir's @main does: starts @fib (a generator of
 * the first ten Fibonacci numbers that ends with the next one), sums what
 * it yields, reads its final result and prints 100 * sum + final. The same
 * code drives @fib under every ABI it can be lowered to (switch, retcon,
 * async): the host API works on any handle. Every handle is destroyed. */
#include "coro-runtime/Runtime.h"

#include <stdint.h>
#include <stdio.h>

/* The coroutine, under its own name: its handle is a plain pointer. */
void *fib(int64_t n);

int main(void) {
  void *g = fib(10);
  int64_t sum = 0;
  while (!coro_rt_done(g)) {
    sum += coro_rt_promise_i64(g);
    if (coro_rt_resume(g) != CORO_RT_OK) {
      fprintf(stderr, "drive: could not resume\n");
      return 1;
    }
  }
  int64_t final = coro_rt_promise_i64(g);
  coro_rt_destroy(g);
  printf("%lld\n", (long long)(100 * sum + final));
  return 0;
}
