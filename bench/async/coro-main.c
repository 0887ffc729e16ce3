/* coro-main.c - bench/async.sh's driver of coro's side (coro.mlir and
 * coro-pool-fib.mlir):
 *
 *   coro-main fanout N W  N @leaf tasks, task i storing its result in
 *                         slot i of a buffer, as MLIR's side does; W = 0:
 *                         each resumed on this thread as soon as it is made
 *                         (it ends) and destroyed; W > 0: each added to a
 *                         group, submitted to a pool of W workers and
 *                         detached as soon as it is made (the runtime
 *                         releases it when it ends), then the group waited
 *                         for; then the slots are summed
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

void *leaf(int64_t i, int64_t *out);
void *fib(int64_t n);
void *fib_pool(coro_rt_pool *pool, int64_t n);

static coro_rt_pool *pool; /* NULL: run on this thread */

static void check(int rc, const char *what) {
  if (rc != CORO_RT_OK) {
    fprintf(stderr, "coro-main: %s failed: %d\n", what, rc);
    exit(1);
  }
}

static int64_t fanout(int64_t n) {
  int64_t *out = malloc((size_t)n * sizeof *out);
  coro_rt_group *g = pool ? coro_rt_group_create() : NULL;
  if (!out || (pool && !g))
    exit(1);
  for (int64_t i = 0; i < n; ++i) {
    void *t = leaf(i, out); /* parked at its start */
    if (!pool) {
      check(coro_rt_resume(t), "resume");
      coro_rt_destroy(t);
      continue;
    }
    check(coro_rt_group_add(g, t), "coro_rt_group_add");
    check(coro_rt_task_submit(pool, t), "coro_rt_task_submit");
    check(coro_rt_task_detach(t), "coro_rt_task_detach");
  }
  if (pool) {
    if (coro_rt_group_wait(g) != 0)
      check(CORO_RT_ERR_ARG, "coro_rt_group_wait");
    coro_rt_group_destroy(g);
  }
  int64_t sum = 0;
  for (int64_t i = 0; i < n; ++i)
    sum += out[i];
  free(out);
  return sum;
}

static int64_t fib_tree(int64_t n) {
  void *root;
  if (!pool) {
    root = fib(n);
    check(coro_rt_resume(root), "resume");
  } else {
    root = fib_pool(pool, n);
    check(coro_rt_task_submit(pool, root), "coro_rt_task_submit");
    check(coro_rt_task_wait(root), "coro_rt_task_wait");
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
