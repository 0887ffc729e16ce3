/* bench.c - a generator's cost per resumed value: coro's switch lowering
 * (bench/generator.mlir through coro-translate -O2) against a hand-written
 * C state machine and a clang C++20 coroutine (cxx_generator.cpp), measured
 * in the same run, printed as ratios, with the frame on the heap and
 * elided, and the retcon and async lowerings (bench/generator-retcon.mlir,
 * generator-async.mlir) against the heap peers, and the switch generator
 * split by route B (rows "heap B", "elided B", "retcon B", "async B"), a
 * generator without coro.alloc whose frame --coro-elide places ("local", "local
 * B"), the retcon generator drained where it is made, its control block
 * elided ("rc local", "rc local B"), and route B at -O0 against the C state
 * machine at -O0 ("... B0"; the C++ column stays -O2). Every consumer passes
 * each value to bench_sink (sink.c). Each figure is the best of REPEATS runs of
 * N values. */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void bench_sink(int64_t v);
void *bench_launder(void *p);
void coro_sum_heap(int64_t n);
void coro_sum_elided(int64_t n);
void coro_sum_retcon(int64_t n);
void coro_sum_async(int64_t n);
void coro_b_sum_heap(int64_t n);
void coro_b_sum_retcon(int64_t n);
void coro_sum_retcon_local(int64_t n);
void coro_b_sum_retcon_local(int64_t n);
void coro_b_sum_async(int64_t n);
void coro_b_sum_elided(int64_t n);
void coro_sum_local(int64_t n);
void coro_b_sum_local(int64_t n);
void coro_b_sum_helper(int64_t n);
void coro_b0_sum_elided(int64_t n);
void coro_b0_sum_local(int64_t n);
void cxx_sum_heap(int64_t n);
void cxx_sum_elided(int64_t n);
/* the hand-written C state machine (state_machine.c), built at -O2 (c_)
 * and at -O0 (c0_, the peer of the rows built at -O0) */
void c_sum_heap(int64_t n);
void c_sum_elided(int64_t n);
void c0_sum_elided(int64_t n);

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
  /* --once: each function once, untimed, for an instruction count
   * (bench/instructions.sh runs this under callgrind) */
  int once = argc > 2 && !strcmp(argv[2], "--once");
  struct {
    const char *frame;
    void (*coro)(int64_t), (*c)(int64_t), (*cxx)(int64_t);
  } rows[] = {
      {"heap", coro_sum_heap, c_sum_heap, cxx_sum_heap},
      {"elided", coro_sum_elided, c_sum_elided, cxx_sum_elided},
      /* retcon: the same heap peers (an indirect call per value) */
      {"retcon", coro_sum_retcon, c_sum_heap, cxx_sum_heap},
      {"async", coro_sum_async, c_sum_heap, cxx_sum_heap},
      /* route B: generator.mlir split by coro's --coro-split */
      {"heap B", coro_b_sum_heap, c_sum_heap, cxx_sum_heap},
      {"elided B", coro_b_sum_elided, c_sum_elided, cxx_sum_elided},
      {"retcon B", coro_b_sum_retcon, c_sum_heap, cxx_sum_heap},
      {"async B", coro_b_sum_async, c_sum_heap, cxx_sum_heap},
      /* no coro.alloc: --coro-elide decides (route B: the stack) */
      {"local", coro_sum_local, c_sum_elided, cxx_sum_elided},
      {"local B", coro_b_sum_local, c_sum_elided, cxx_sum_elided},
      {"helper B", coro_b_sum_helper, c_sum_elided, cxx_sum_elided},
      /* retcon drained where it is made: the control block elided */
      {"rc local", coro_sum_retcon_local, c_sum_elided, cxx_sum_elided},
      {"rc local B", coro_b_sum_retcon_local, c_sum_elided, cxx_sum_elided},
      /* route B at -O0, against the C state machine at -O0 */
      {"elided B0", coro_b0_sum_elided, c0_sum_elided, cxx_sum_elided},
      {"local B0", coro_b0_sum_local, c0_sum_elided, cxx_sum_elided}};
  if (once) {
    void (*peers[])(int64_t) = {c_sum_heap, c_sum_elided, c0_sum_elided,
                                cxx_sum_heap, cxx_sum_elided};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i)
      rows[i].coro(n);
    for (size_t i = 0; i < sizeof peers / sizeof peers[0]; ++i)
      peers[i](n);
    return 0;
  }
  printf("generator, %lld values, best of %d, ns per value\n", (long long)n,
         REPEATS);
  printf("%-10s %10s %10s %10s %12s %12s\n", "frame", "coro", "C sm", "C++20",
         "coro/C", "coro/C++");
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
    double a = measure(rows[i].coro, n);
    double b = measure(rows[i].c, n);
    double c = measure(rows[i].cxx, n);
    printf("%-10s %10.3f %10.3f %10.3f %12.2f %12.2f\n", rows[i].frame, a, b, c,
           a / b, a / c);
  }
  return 0;
}
