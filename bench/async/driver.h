/* driver.h - what the two drivers of bench/async.sh share: the clock, the
 * peak resident set, the task count of the fib tree, and the run loop that
 * prints the one line async.sh reads. Each driver is one C file that
 * includes this once. */
#ifndef BENCH_ASYNC_DRIVER_H
#define BENCH_ASYNC_DRIVER_H

#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

enum { BENCH_RUNS = 3 };

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The process's peak resident set so far, in KiB. */
static long peak_kb(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

/* How many calls, each one task, the fib tree of n makes. */
static int64_t fib_calls(int64_t n) {
  int64_t a = 1, b = 1; /* calls of fib(k - 1) and fib(k), from k = 1 */
  for (int64_t k = 1; k < n; ++k) {
    int64_t c = a + b + 1;
    a = b;
    b = c;
  }
  return b;
}

/* Runs work(n) BENCH_RUNS times, timing the call alone, and prints
 *   result R tasks T ns NS peak_kb P base_kb B workers W
 * with NS the best run's nanoseconds per task and B the peak before the
 * first run. Returns 1 (and says so) when the runs disagree. */
static int bench_run(int64_t (*work)(int64_t), int64_t n, int64_t tasks,
                     long base_kb, int64_t workers) {
  double best = 0;
  int64_t result = 0;
  for (int r = 0; r < BENCH_RUNS; ++r) {
    double t = seconds();
    int64_t v = work(n);
    t = seconds() - t;
    if (r > 0 && v != result) {
      fprintf(stderr, "run %d gave %lld, run 0 %lld\n", r, (long long)v,
              (long long)result);
      return 1;
    }
    result = v;
    if (r == 0 || t < best)
      best = t;
  }
  printf("result %lld tasks %lld ns %.1f peak_kb %ld base_kb %ld workers "
         "%lld\n",
         (long long)result, (long long)tasks, best * 1e9 / (double)tasks,
         peak_kb(), base_kb, (long long)workers);
  return 0;
}

#endif
