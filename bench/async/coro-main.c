/* coro-main.c - bench/async.sh's driver of coro's side (coro.mlir, and
 * coro-pool-fib.mlir when built with -DHAVE_TASK_SUBMIT):
 *
 *   coro-main fanout N W  N @leaf tasks; W = 0: each resumed on this
 *                         thread as soon as it is made; W > 0: each
 *                         submitted to a pool of W workers as soon as it is
 *                         made, then coro_rt_pool_wait; then the promises
 *                         are summed and every task destroyed
 *   coro-main fib N W     fib(N); W = 0: @fib's root resumed on this
 *                         thread; W > 0: @fib_pool's root submitted with
 *                         coro_rt_task_submit to a pool of W workers and
 *                         waited for with coro_rt_task_wait
 *
 * The pool is made before the timed runs, as MLIR's runtime makes its own
 * before them; bench_run (driver.h) times and prints. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */

#include "coro-runtime/Runtime.h"
#include "driver.h"

#include <stdlib.h>
#include <string.h>

void *leaf(int64_t i);
void *fib(int64_t n);
#ifdef HAVE_TASK_SUBMIT
void *fib_pool(coro_rt_pool *pool, int64_t n);
int coro_rt_task_submit(coro_rt_pool *pool, void *task);
int coro_rt_task_wait(void *task);
#endif

static coro_rt_pool *pool; /* NULL: run on this thread */

static void check(int rc, const char *what) {
  if (rc != CORO_RT_OK) {
    fprintf(stderr, "coro-main: %s failed: %d\n", what, rc);
    exit(1);
  }
}

static int64_t fanout(int64_t n) {
  void **tasks = malloc((size_t)n * sizeof *tasks);
  if (!tasks)
    exit(1);
  for (int64_t i = 0; i < n; ++i) {
    tasks[i] = leaf(i); /* parked at its start */
    check(pool ? coro_rt_pool_submit(pool, tasks[i]) : coro_rt_resume(tasks[i]),
          "submit or resume");
  }
  if (pool)
    coro_rt_pool_wait(pool);
  int64_t sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    sum += coro_rt_promise_i64(tasks[i]);
    coro_rt_destroy(tasks[i]);
  }
  free(tasks);
  return sum;
}

static int64_t fib_tree(int64_t n) {
  void *root;
  if (!pool) {
    root = fib(n);
    check(coro_rt_resume(root), "resume");
  } else {
#ifdef HAVE_TASK_SUBMIT
    root = fib_pool(pool, n);
    check(coro_rt_task_submit(pool, root), "coro_rt_task_submit");
    check(coro_rt_task_wait(root), "coro_rt_task_wait");
#else
    fprintf(stderr, "coro-main: built without coro_rt_task_submit\n");
    exit(2);
#endif
  }
  int64_t v = coro_rt_promise_i64(root);
  coro_rt_destroy(root);
  return v;
}

int main(int argc, char **argv) {
  long base_kb = peak_kb();
  if (argc != 4) {
    fprintf(stderr, "usage: coro-main fanout|fib N WORKERS\n");
    return 2;
  }
  int64_t n = atoll(argv[2]), workers = atoll(argv[3]);
  if (workers > 0 && !(pool = coro_rt_pool_create(workers))) {
    fprintf(stderr, "coro-main: no pool of %lld workers\n", (long long)workers);
    return 1;
  }
  int fib_mode = strcmp(argv[1], "fib") == 0;
  int rc = fib_mode ? bench_run(fib_tree, n, fib_calls(n), base_kb, workers)
                    : bench_run(fanout, n, n, base_kb, workers);
  coro_rt_pool_destroy(pool);
  return rc;
}
