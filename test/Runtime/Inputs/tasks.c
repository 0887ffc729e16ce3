/* tasks.c - the host of tasks.test: the runtime's functions for tasks
 * across threads (Runtime.h, "Tasks across threads", "Task groups") on
 * real async tasks (tasks.mlir), their results and every error code they
 * document. Prints one line per check. */
#include "coro-runtime/Runtime.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

void *job(int64_t v, int64_t *runs);
void *again(void *pool, int64_t n, int64_t *runs);

int main(void) {
  coro_rt_pool *pool = coro_rt_pool_create(2), *other = coro_rt_pool_create(1);
  int64_t runs = 0;

  /* A task that is not scheduled: waiting for it would hang. */
  void *t = job(5, &runs);
  printf("wait unscheduled: %d\n", coro_rt_task_wait(t));
  printf("failed before: %d error %s\n", coro_rt_task_failed(t),
         coro_rt_task_error(t) ? "set" : "null");
  /* Submitted twice: it runs once (the second submission finds it queued
   * or, if a worker was quick, ended). */
  int s1 = coro_rt_task_submit(pool, t);
  int s2 = coro_rt_task_submit(pool, t);
  printf("submit: %d %s\n", s1,
         s2 == CORO_RT_OK || s2 == CORO_RT_ERR_DONE ? "ok" : "wrong");
  printf("other pool: %d\n", coro_rt_task_submit(other, t));
  int w = coro_rt_task_wait(t);
  printf("wait: %d value %lld runs %lld\n", w,
         (long long)coro_rt_promise_i64(t), (long long)runs);
  printf("wait again: %d\n", coro_rt_task_wait(t));
  printf("submit ended: %d\n", coro_rt_task_submit(pool, t));

  /* A failing task: its error reaches the host. */
  void *f = job(-1, &runs);
  coro_rt_task_submit(pool, f);
  coro_rt_task_wait(f);
  printf("failed: %d error '%s' done %d\n", coro_rt_task_failed(f),
         coro_rt_task_error(f), coro_rt_done(f));

  /* A group of four, one failing, waited for by the host. */
  coro_rt_group *g = coro_rt_group_create();
  void *js[4];
  for (int i = 0; i < 4; ++i) {
    js[i] = job(i == 2 ? -7 : 10 * i, &runs);
    coro_rt_group_add(g, js[i]);
  }
  printf("add again: %d\n", coro_rt_group_add(g, js[0]));
  coro_rt_group *g2 = coro_rt_group_create();
  printf("add to another: %d\n", coro_rt_group_add(g2, js[1]));
  printf("pending: %lld\n", (long long)coro_rt_group_pending(g));
  printf("destroy pending: %d\n", coro_rt_group_destroy(g));
  for (int i = 0; i < 4; ++i)
    coro_rt_task_submit(pool, js[i]);
  printf("group failed: %lld\n", (long long)coro_rt_group_wait(g));
  int64_t sum = 0;
  for (int i = 0; i < 4; ++i)
    sum += coro_rt_task_failed(js[i]) ? 0 : coro_rt_promise_i64(js[i]);
  printf("sum %lld pending %lld\n", (long long)sum,
         (long long)coro_rt_group_pending(g));
  /* An ended task added to a group counts at once; the group is reusable. */
  void *e = job(3, &runs);
  coro_rt_task_submit(pool, e);
  coro_rt_task_wait(e);
  coro_rt_group *g3 = coro_rt_group_create();
  int added = coro_rt_group_add(g3, e);
  int64_t pending = coro_rt_group_pending(g3);
  printf("add ended: %d pending %lld wait %lld\n", added, (long long)pending,
         (long long)coro_rt_group_wait(g3));
  int d1 = coro_rt_group_destroy(g), d2 = coro_rt_group_destroy(g2);
  printf("destroy: %d %d %d\n", d1, d2, coro_rt_group_destroy(g3));
  int n1 = coro_rt_task_submit(pool, NULL), n2 = coro_rt_task_wait(NULL);
  int n3 = coro_rt_group_add(NULL, e);
  int64_t n4 = coro_rt_group_wait(NULL);
  printf("nulls: %d %d %d %lld %d\n", n1, n2, n3, (long long)n4,
         coro_rt_group_destroy(NULL));

  /* A host waiting for a group whose task nobody submitted would wait
   * for good: refused; once submitted, the wait goes through. */
  coro_rt_group *g4 = coro_rt_group_create();
  void *u = job(4, &runs);
  coro_rt_group_add(g4, u);
  int64_t refused = coro_rt_group_wait(g4);
  coro_rt_task_submit(pool, u);
  int64_t waited = coro_rt_group_wait(g4);
  printf("unscheduled group: %lld then %lld, destroy %d\n", (long long)refused,
         (long long)waited, coro_rt_group_destroy(g4));
  coro_rt_destroy(u);

  /* A task that submits itself while it runs, 1000 times. */
  int64_t aruns = 0;
  void *a = again(pool, 1000, &aruns);
  int aw = coro_rt_task_wait(a);
  printf("again: wait %d value %lld runs %lld\n", aw,
         (long long)coro_rt_promise_i64(a), (long long)aruns);

  coro_rt_destroy(t);
  coro_rt_destroy(f);
  for (int i = 0; i < 4; ++i)
    coro_rt_destroy(js[i]);
  coro_rt_destroy(e);
  coro_rt_destroy(a);
  coro_rt_pool_destroy(other);
  coro_rt_pool_destroy(pool);
  return 0;
}
