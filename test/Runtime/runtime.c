/* RUN: %coro_bin/test/Runtime/runtime-test 2>&1 | FileCheck %s
 * RUN: %if tsan %{ %coro_bin/test/Runtime/runtime-test-tsan 2>&1 | FileCheck %s %}
 *
 * The run-time library on its own, driven from C: task allocation (prefix,
 * alignment, zeroing), resuming and destroying through the handle header,
 * the executor's FIFO order, and events waking their waiters through the
 * executor, and the error codes of the handle and queueing functions. The
 * handles here are hand-made blocks with the common header; their resume entry
 * counts down a budget of suspensions. */
#include "coro-runtime/Runtime.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A hand-made handle: the common header, then test state. */
struct fake {
  void (*resume)(void *);
  void (*destroy)(void *);
  void *promise_continuation;
  int64_t value; /* promise value: how many times it was resumed */
  int id, budget;
  coro_rt_executor *executor; /* re-queues itself here while budget lasts */
};

static void fake_resume(void *h) {
  struct fake *f = h;
  ++f->value;
  printf("resume %d (%lld)\n", f->id, (long long)f->value);
  if (--f->budget == 0)
    f->resume = NULL; /* finished */
  else if (f->executor)
    coro_rt_schedule(f->executor, f);
}

static int destroyed;
static void fake_destroy(void *h) { ++destroyed; }

static struct fake make(int id, int budget, coro_rt_executor *ex) {
  struct fake f = {fake_resume, fake_destroy, NULL, 0, id, budget, ex};
  return f;
}

static void testTasks(void) {
  printf("@tasks\n");
  // CHECK-LABEL: @tasks
  char *h = coro_rt_task_alloc(48);
  coro_rt_task_prefix *p =
      (coro_rt_task_prefix *)(h - CORO_RT_TASK_PREFIX_SIZE);
  int zero = p->seen_entry == NULL && p->parked == NULL && p->handoff == NULL &&
             p->destroying == 0 && p->awaiter == NULL;
  for (int i = 0; i < 48; ++i)
    zero &= h[i] == 0;
  // CHECK: aligned 1 zero 1 prefix 96
  printf("aligned %d zero %d prefix %d\n", (int)((uintptr_t)h % 16 == 0), zero,
         (int)sizeof(coro_rt_task_prefix));
  /* The seen entry: the first call of the runtime that may make the state
   * word non-zero puts it in the handle's resume entry (route B's own entry
   * assumes the runtime never saw the task); a null entry (ended) stays
   * null, and a task with none keeps its own. */
  void **entry = (void **)h;
  entry[0] = (void *)fake_resume;
  p->seen_entry = (void *)fake_destroy;
  void *r = coro_rt_task_enter(h);
  int swapped = entry[0] == (void *)fake_destroy;
  coro_rt_task_park(h);
  char *ended = coro_rt_task_alloc(48);
  coro_rt_task_prefix *q =
      (coro_rt_task_prefix *)(ended - CORO_RT_TASK_PREFIX_SIZE);
  q->seen_entry = (void *)fake_destroy;
  coro_rt_task_enter(ended);
  int stays_null = *(void **)ended == NULL;
  char *own = coro_rt_task_alloc(48);
  *(void **)own = (void *)fake_resume;
  coro_rt_task_enter(own);
  int keeps = *(void **)own == (void *)fake_resume;
  // CHECK-NEXT: seen: ran 1 swapped 1 ended 1 own 1
  printf("seen: ran %d swapped %d ended %d own %d\n", r == NULL, swapped,
         stays_null, keeps);
  coro_rt_task_free(own);
  coro_rt_task_free(ended);
  p->seen_entry = NULL;
  coro_rt_task_free(h);
  coro_rt_task_free(NULL);
  /* A released block, written all over, comes back zeroed, prefix
   * included, whatever size takes it next (the runtime keeps released
   * blocks by size class and gives them out again once a thread keeps more
   * than a few of a class); sizes about the largest class's end and past
   * it. */
  int again = 1;
  static const int64_t sizes[] = {48, 40, 1, 100, 900, 912, 928, 5000};
  enum { ROUNDS = 3, MANY = 100 };
  for (int k = 0; k < ROUNDS; ++k)
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; ++i) {
      int64_t n = sizes[i];
      char *t[MANY];
      for (int m = 0; m < MANY; ++m) {
        t[m] = coro_rt_task_alloc(n);
        char *base = t[m] - CORO_RT_TASK_PREFIX_SIZE;
        for (int64_t j = 0; j < n + CORO_RT_TASK_PREFIX_SIZE; ++j)
          again &= base[j] == 0;
        again &= (uintptr_t)t[m] % 16 == 0;
        memset(base, 0xa5, (size_t)(n + CORO_RT_TASK_PREFIX_SIZE));
      }
      for (int m = 0; m < MANY; ++m)
        coro_rt_task_free(t[m]);
    }
  // CHECK: released blocks zeroed again 1
  printf("released blocks zeroed again %d\n", again);
  // CHECK: bad sizes 1
  printf("bad sizes %d\n",
         coro_rt_task_alloc(0) == NULL && coro_rt_task_alloc(-5) == NULL);
  /* Plain contexts: no prefix, zeroed, 16-aligned. */
  char *c = coro_rt_context_alloc(40);
  int czero = 1;
  for (int i = 0; i < 40; ++i)
    czero &= c[i] == 0;
  // CHECK: context aligned 1 zero 1 bad 1
  printf("context aligned %d zero %d bad %d\n", (int)((uintptr_t)c % 16 == 0),
         czero, coro_rt_context_alloc(0) == NULL);
  coro_rt_context_free(c);
  coro_rt_context_free(NULL);
}

static void testHandles(void) {
  printf("@handles\n");
  // CHECK-LABEL: @handles
  struct fake f = make(7, 1, NULL);
  // CHECK: done 0
  printf("done %d\n", coro_rt_done(&f));
  // CHECK: resume 7 (1)
  // CHECK-NEXT: resumed 0
  printf("resumed %d\n", coro_rt_resume(&f));
  // CHECK: done 1
  printf("done %d\n", coro_rt_done(&f));
  /* An ended coroutine is not resumed again (nothing is printed). */
  // CHECK-NEXT: again -3
  printf("again %d\n", coro_rt_resume(&f));
  destroyed = 0;
  // CHECK: destroyed 1 rc 0
  int rc = coro_rt_destroy(&f);
  printf("destroyed %d rc %d\n", destroyed, rc);
  // CHECK: null -2 -2 -2
  printf("null %d %d %d\n", coro_rt_resume(NULL), coro_rt_destroy(NULL),
         coro_rt_done(NULL));
}

/* A hand-made retcon control block (HandleLayout.h): the resume entry adds
 * the resume slot to the promise's value. */
struct fake_retcon {
  void (*resume)(void *);
  void (*destroy)(void *);
  void *promise_continuation;
  int64_t value;
  void *continuation;
  int64_t slot;
};
_Static_assert(offsetof(struct fake_retcon, value) ==
                   CORO_HANDLE_PROMISE_VALUE_OFFSET,
               "value");
_Static_assert(offsetof(struct fake_retcon, slot) ==
                   CORO_RETCON_RESUME_SLOT_OFFSET,
               "slot");

static void retcon_resume(void *h) {
  struct fake_retcon *f = h;
  f->value += f->slot;
}

static void testPromise(void) {
  printf("@promise\n");
  // CHECK-LABEL: @promise
  struct fake_retcon f = {retcon_resume, fake_destroy, NULL, 5, NULL, 0};
  // CHECK: value 5 at 1
  printf("value %lld at %d\n", (long long)coro_rt_promise_i64(&f),
         coro_rt_promise(&f) == &f.value);
  // CHECK: with 0 value 12 slot 7
  int rc = coro_rt_resume_with_i64(&f, 7);
  printf("with %d value %lld slot %lld\n", rc, (long long)f.value,
         (long long)f.slot);
  // CHECK: set 0 value 40
  rc = coro_rt_promise_set_i64(&f, 40);
  printf("set %d value %lld\n", rc, (long long)f.value);
  /* A value aligned to 16 is 16 bytes into the promise; to 8 or less, 8. */
  // CHECK: aligned 16 8 8 8
  char *p = (char *)&f + CORO_HANDLE_PROMISE_OFFSET;
  printf("aligned %d %d %d %d\n",
         (int)((char *)coro_rt_promise_aligned(&f, 16) - p),
         (int)((char *)coro_rt_promise_aligned(&f, 8) - p),
         (int)((char *)coro_rt_promise_aligned(&f, 4) - p),
         (int)((char *)coro_rt_promise_aligned(&f, 1) - p));
  f.resume = NULL; /* ended */
  f.slot = 0;
  // CHECK: ended -3 slot 0
  rc = coro_rt_resume_with_i64(&f, 9);
  printf("ended %d slot %lld\n", rc, (long long)f.slot);
}

static void testExecutor(void) {
  printf("@executor\n");
  // CHECK-LABEL: @executor
  coro_rt_executor *ex = coro_rt_executor_create();
  struct fake a = make(1, 2, ex), b = make(2, 3, ex);
  coro_rt_schedule(ex, &a);
  coro_rt_schedule(ex, &b);
  // CHECK: pending 2
  printf("pending %lld\n", (long long)coro_rt_pending(ex));
  // First in, first out; each resumed task queues itself again until its
  // budget is spent.
  // CHECK-NEXT: resume 1 (1)
  // CHECK-NEXT: resume 2 (1)
  // CHECK-NEXT: resume 1 (2)
  // CHECK-NEXT: resume 2 (2)
  // CHECK-NEXT: resume 2 (3)
  // CHECK-NEXT: ran 5 pending 0 done 1 1
  int64_t ran = coro_rt_run(ex);
  printf("ran %lld pending %lld done %d %d\n", (long long)ran,
         (long long)coro_rt_pending(ex), coro_rt_done(&a), coro_rt_done(&b));
  /* The ring grows past its first capacity and keeps the order. */
  enum { N = 100 };
  struct fake many[N];
  for (int i = 0; i < N; ++i) {
    many[i] = make(1000 + i, 1, NULL);
    coro_rt_schedule(ex, &many[i]);
  }
  int done = 0;
  coro_rt_run(ex);
  for (int i = 0; i < N; ++i)
    done += coro_rt_done(&many[i]);
  // CHECK: resume 1099 (1)
  // CHECK-NEXT: many done 100
  printf("many done %d\n", done);
  /* A null handle is refused; a queued coroutine that ended meanwhile is
   * skipped and not counted. */
  struct fake ended = make(9, 1, NULL);
  ended.resume = NULL;
  // CHECK-NEXT: null -2 ended ran 0
  int rc = coro_rt_schedule(ex, NULL);
  coro_rt_schedule(ex, &ended);
  printf("null %d ended ran %lld\n", rc, (long long)coro_rt_run(ex));
  coro_rt_executor_destroy(ex);
}

static void testEvents(void) {
  printf("@events\n");
  // CHECK-LABEL: @events
  coro_rt_executor *ex = coro_rt_executor_create();
  coro_rt_event *ev = coro_rt_event_create(ex);
  struct fake a = make(1, 1, NULL), b = make(2, 1, NULL), c = make(3, 1, NULL);
  coro_rt_event_wait(ev, &a);
  coro_rt_event_wait(ev, &b);
  // CHECK: wait null -2
  printf("wait null %d\n", coro_rt_event_wait(ev, NULL));
  // Nothing runs before the signal.
  // CHECK: before: ran 0 set 0
  int64_t ran = coro_rt_run(ex);
  printf("before: ran %lld set %d\n", (long long)ran, coro_rt_event_is_set(ev));
  coro_rt_event_signal(ev);
  coro_rt_event_signal(ev); /* a second signal does nothing more */
  // CHECK: queued 2
  printf("queued %lld\n", (long long)coro_rt_pending(ex));
  // CHECK-NEXT: resume 1 (1)
  // CHECK-NEXT: resume 2 (1)
  coro_rt_run(ex);
  // Waiting on a set event queues at once.
  coro_rt_event_wait(ev, &c);
  // CHECK-NEXT: resume 3 (1)
  // CHECK-NEXT: after: set 1 done 1 1 1
  coro_rt_run(ex);
  printf("after: set %d done %d %d %d\n", coro_rt_event_is_set(ev),
         coro_rt_done(&a), coro_rt_done(&b), coro_rt_done(&c));
  coro_rt_event_destroy(ev);
  coro_rt_executor_destroy(ex);
}

/* A hand-made handle for the pool: re-submits itself until its budget is
 * spent. Only one worker runs it at a time (it is submitted once per
 * suspension), so its fields need no lock. */
struct pooled {
  void (*resume)(void *);
  void (*destroy)(void *);
  void *promise_continuation;
  int64_t value;
  int budget;
  coro_rt_pool *pool;
};

static void pooled_resume(void *h) {
  struct pooled *f = h;
  ++f->value;
  if (--f->budget == 0)
    f->resume = NULL;
  else
    coro_rt_pool_submit(f->pool, f);
}

static void testPool(void) {
  printf("@pool\n");
  // CHECK-LABEL: @pool
  // CHECK: bad sizes 1
  printf("bad sizes %d\n",
         coro_rt_pool_create(0) == NULL && coro_rt_pool_create(257) == NULL);
  coro_rt_pool *pool = coro_rt_pool_create(4);
  // CHECK: submit null -2
  printf("submit null %d\n", coro_rt_pool_submit(pool, NULL));
  enum { N = 64 };
  static struct pooled tasks[N];
  int64_t expected = 0;
  for (int i = 0; i < N; ++i) {
    tasks[i] =
        (struct pooled){pooled_resume, fake_destroy, NULL, 0, i + 1, pool};
    expected += i + 1;
  }
  for (int i = 0; i < N; ++i)
    coro_rt_pool_submit(pool, &tasks[i]);
  /* Waiting covers the resumptions submitted by running coroutines. */
  int64_t resumed = coro_rt_pool_wait(pool);
  int done = 0, right = 0;
  for (int i = 0; i < N; ++i) {
    done += coro_rt_done(&tasks[i]);
    right += tasks[i].value == i + 1;
  }
  // CHECK-NEXT: resumed 2080 of 2080, done 64, values right 64
  printf("resumed %lld of %lld, done %d, values right %d\n", (long long)resumed,
         (long long)expected, done, right);
  // An idle pool waits for nothing, and is destroyed with its workers.
  // CHECK-NEXT: again 2080
  printf("again %lld\n", (long long)coro_rt_pool_wait(pool));
  coro_rt_pool_destroy(pool);
  coro_rt_pool_destroy(NULL);
}

int main(void) {
  testTasks();
  testHandles();
  testPromise();
  testExecutor();
  testEvents();
  testPool();
  return 0;
}
