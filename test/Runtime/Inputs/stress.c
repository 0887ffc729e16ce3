/* stress.c - the host of the stress test (stress.test): runs the tree of
 * stress.mlir's tasks on a pool of W workers, depth D, R rounds, and
 * checks every task ran exactly once, the root's value (tasks that ended
 * well, plus failed leaves << 32) against the same tree computed here, and
 * that the errors reached their parents. Prints "ok N tasks, F failed"
 * once per round, or what is wrong, exiting non-zero. */
#include "coro-runtime/Runtime.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

void *node(void *pool, int64_t *slots, int64_t *counter, int64_t seed,
           int64_t depth);

static uint64_t mix(uint64_t x) {
  uint64_t z = x * 6364136223846793005ull + 1442695040888963407ull;
  return z ^ (z >> 33);
}

/* The tasks of the subtree, and its failed leaves. */
static void expect(uint64_t seed, int64_t depth, int64_t *tasks,
                   int64_t *failed) {
  uint64_t r = mix(seed);
  ++*tasks;
  if (depth == 0) {
    *failed += r % 97 == 0;
    return;
  }
  expect(mix(r + 1), depth - 1, tasks, failed);
  expect(mix(r + 2), depth - 1, tasks, failed);
}

int main(int argc, char **argv) {
  int64_t workers = argc > 1 ? atoll(argv[1]) : 2;
  int64_t depth = argc > 2 ? atoll(argv[2]) : 19;
  int64_t rounds = argc > 3 ? atoll(argv[3]) : 1;
  coro_rt_pool *pool = coro_rt_pool_create(workers);
  if (!pool)
    return 2;
  int status = 0;
  for (int64_t round = 0; round < rounds && !status; ++round) {
    int64_t seed = 12345 + round, tasks = 0, failed = 0;
    expect((uint64_t)seed, depth, &tasks, &failed);
    int64_t *slots = calloc((size_t)tasks, sizeof *slots);
    int64_t counter = 0;
    void *root = node(pool, slots, &counter, seed, depth);
    int rc = coro_rt_task_submit(pool, root);
    int wrc = coro_rt_task_wait(root);
    int64_t value = coro_rt_promise_i64(root);
    int64_t want = (tasks - failed) + (failed << 32);
    if (rc != CORO_RT_OK || wrc != CORO_RT_OK) {
      printf("submit %d wait %d\n", rc, wrc);
      status = 1;
    } else if (counter != tasks) {
      printf("ran %lld tasks of %lld\n", (long long)counter, (long long)tasks);
      status = 1;
    } else if (value != want) {
      printf("root value %llx, want %llx\n", (unsigned long long)value,
             (unsigned long long)want);
      status = 1;
    }
    for (int64_t i = 0; i < tasks && !status; ++i)
      if (slots[i] != 1) {
        printf("slot %lld ran %lld times\n", (long long)i, (long long)slots[i]);
        status = 1;
      }
    coro_rt_destroy(root);
    coro_rt_pool_wait(pool);
    free(slots);
    if (!status)
      printf("ok %lld tasks, %lld failed\n", (long long)tasks,
             (long long)failed);
  }
  coro_rt_pool_destroy(pool);
  return status;
}
