/* mlir-main.c - bench/async.sh's driver of MLIR's side (mlir.mlir, linked
 * with libmlir_async_runtime):
 *
 *   mlir-main fanout N   @fanout(N): N tasks, their results summed
 *   mlir-main fib N      @fib_main(N): the fib tree of N
 *
 * MLIR's runtime takes no worker count: its thread pool (an llvm
 * StdThreadPool with the default strategy) has as many workers as the
 * process may use CPUs (sched_getaffinity), so async.sh sets it with
 * taskset. The line's `workers` is what the runtime reports. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */

#include "driver.h"

#include <stdlib.h>
#include <string.h>

int64_t fanout(int64_t n);
int64_t fib_main(int64_t n);
/* (sic: the runtime's own spelling) */
int64_t mlirAsyncRuntimGetNumWorkerThreads(void);

int main(int argc, char **argv) {
  long base_kb = peak_kb();
  if (argc != 3) {
    fprintf(stderr, "usage: mlir-main fanout|fib N\n");
    return 2;
  }
  int64_t n = atoll(argv[2]);
  int64_t workers = mlirAsyncRuntimGetNumWorkerThreads();
  if (strcmp(argv[1], "fib") == 0)
    return bench_run(fib_main, n, fib_calls(n), base_kb, workers);
  return bench_run(fanout, n, n, base_kb, workers);
}
