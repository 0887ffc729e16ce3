/* bench.c - a generator's cost per resumed value: coro's switch lowering
 * (bench/generator.mlir through coro-translate -O2) against a hand-written
 * C state machine and a clang C++20 coroutine (cxx_generator.cpp), measured
 * in the same run, printed as ratios, with the frame on the heap and
 * elided, and the retcon and async lowerings (bench/generator-retcon.mlir,
 * generator-async.mlir) against the heap peers, and the switch generator
 * split by route B (rows "heap B", "elided B"). Every consumer passes each
 * value to bench_sink (sink.c). Each figure is the best of REPEATS runs of N
 * values. */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void bench_sink(int64_t v);
void *bench_launder(void *p);
void coro_sum_heap(int64_t n);
void coro_sum_elided(int64_t n);
void coro_sum_retcon(int64_t n);
void coro_sum_async(int64_t n);
void coro_b_sum_heap(int64_t n);
void coro_b_sum_elided(int64_t n);
void cxx_sum_heap(int64_t n);
void cxx_sum_elided(int64_t n);

/* The hand-written peer: a resumable state machine with the same shape as
 * a coroutine frame (resume function pointer, state, published value). */
struct sm {
  void (*resume)(struct sm *);
  int64_t i, n, value;
  int done;
};

static void sm_resume(struct sm *s) {
  if (++s->i < s->n)
    s->value = s->i;
  else
    s->done = 1;
}

static void sm_start(struct sm *s, int64_t n) {
  s->resume = sm_resume;
  s->i = 0;
  s->n = n;
  s->value = 0;
  s->done = n <= 0;
}

static void c_sum_heap(int64_t n) {
  struct sm *s = bench_launder(malloc(sizeof *s));
  sm_start(s, n);
  while (!s->done) {
    bench_sink(s->value);
    s->resume(s); /* indirect, as a coroutine resume */
  }
  free(s);
}

static void c_sum_elided(int64_t n) {
  struct sm s;
  sm_start(&s, n);
  while (!s.done) {
    bench_sink(s.value);
    sm_resume(&s);
  }
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

enum { REPEATS = 5 };

/* Best nanoseconds per value of `fn` over REPEATS runs. */
static double measure(void (*fn)(int64_t), int64_t n) {
  double best = 1e30;
  for (int r = 0; r < REPEATS; ++r) {
    double t0 = now();
    fn(n);
    double t = (now() - t0) * 1e9 / (double)n;
    best = t < best ? t : best;
  }
  return best;
}

int main(int argc, char **argv) {
  int64_t n = argc > 1 ? atoll(argv[1]) : 50000000;
  struct {
    const char *frame;
    void (*coro)(int64_t), (*c)(int64_t), (*cxx)(int64_t);
  } rows[] = {{"heap", coro_sum_heap, c_sum_heap, cxx_sum_heap},
              {"elided", coro_sum_elided, c_sum_elided, cxx_sum_elided},
              /* retcon: the same heap peers (an indirect call per value) */
              {"retcon", coro_sum_retcon, c_sum_heap, cxx_sum_heap},
              {"async", coro_sum_async, c_sum_heap, cxx_sum_heap},
              /* route B: generator.mlir split by coro's --coro-split */
              {"heap B", coro_b_sum_heap, c_sum_heap, cxx_sum_heap},
              {"elided B", coro_b_sum_elided, c_sum_elided, cxx_sum_elided}};
  printf("generator, %lld values, best of %d, ns per value\n", (long long)n,
         REPEATS);
  printf("%-8s %10s %10s %10s %12s %12s\n", "frame", "coro", "C sm", "C++20",
         "coro/C", "coro/C++");
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
    double a = measure(rows[i].coro, n);
    double b = measure(rows[i].c, n);
    double c = measure(rows[i].cxx, n);
    printf("%-8s %10.3f %10.3f %10.3f %12.2f %12.2f\n", rows[i].frame, a, b, c,
           a / b, a / c);
  }
  return 0;
}
