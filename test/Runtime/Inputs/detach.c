/* detach.c - the host of detach.test: coro_rt_task_detach (Runtime.h) on
 * real async tasks (detach.mlir), whose frames the host allocates and
 * counts. Prints one line per check. */
#include "coro-runtime/Runtime.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

void *leaf(int64_t i, int64_t *out);

static atomic_long allocated, released;

void *counted_alloc(int64_t size) {
  atomic_fetch_add(&allocated, 1);
  return calloc(1, (size_t)size);
}

void counted_free(void *block) {
  atomic_fetch_add(&released, 1);
  free(block);
}

static long live(void) {
  return atomic_load(&allocated) - atomic_load(&released);
}

int main(int argc, char **argv) {
  int64_t n = argc > 1 ? atoll(argv[1]) : 10000;
  int64_t *out = calloc((size_t)n, sizeof *out);
  coro_rt_pool *pool = coro_rt_pool_create(2);

  /* Fire and forget on a pool: each task added to a group, submitted and
   * detached as soon as it is made (it may end before its detach, which
   * then releases it); the group says when all have ended, and by then
   * every task has been released. One more task fails: the group counts
   * it, and it is released all the same. */
  coro_rt_group *g = coro_rt_group_create();
  int bad = 0;
  for (int64_t i = 0; i <= n; ++i) {
    void *t = leaf(i < n ? i : -1, out);
    bad |= coro_rt_group_add(g, t) != CORO_RT_OK;
    bad |= coro_rt_task_submit(pool, t) != CORO_RT_OK;
    bad |= coro_rt_task_detach(t) != CORO_RT_OK;
  }
  int64_t failed = coro_rt_group_wait(g);
  long left = live();
  int64_t sum = 0;
  for (int64_t i = 0; i < n; ++i)
    sum += out[i];
  printf("pool: calls %s, failed %lld, live after the wait %ld, sum %s\n",
         bad ? "wrong" : "ok", (long long)failed, left,
         sum == 3 * n * (n - 1) / 2 ? "ok" : "wrong");

  /* Detached before it runs, then resumed in place: its end releases it.
   * A second detach is refused. */
  int64_t slots[8] = {0};
  void *t = leaf(7, slots);
  int d1 = coro_rt_task_detach(t), d2 = coro_rt_task_detach(t);
  long before = live();
  coro_rt_resume(t);
  printf("in place: detach %d again %d, live %ld then %ld, value %lld\n", d1,
         d2, before, live(), (long long)slots[7]);

  /* Ended before it is detached: released by the detach, at once. */
  void *e = leaf(2, slots);
  coro_rt_resume(e);
  before = live();
  int d3 = coro_rt_task_detach(e);
  printf("ended: live %ld, detach %d, live %ld, value %lld\n", before, d3,
         live(), (long long)slots[2]);

  printf("null: %d\n", coro_rt_task_detach(NULL));
  coro_rt_group_destroy(g);
  coro_rt_pool_destroy(pool);
  free(out);
  printf("allocated %ld released %ld\n", atomic_load(&allocated),
         atomic_load(&released));
  return 0;
}
