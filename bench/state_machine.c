/* state_machine.c - the hand-written peer of bench.c: a resumable state
 * machine with the same shape as a coroutine frame (resume function
 * pointer, state, published value), on the heap behind an indirect call
 * and on the stack. Built twice by bench/run.sh: at -O2 with PREFIX c_ and
 * at -O0 with PREFIX c0_ (the peer of the rows coro builds at -O0). */
#include <stdint.h>
#include <stdlib.h>

#ifndef PREFIX
#define PREFIX c_
#endif
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define NAME(x) CAT(PREFIX, x)

void bench_sink(int64_t v);
void *bench_launder(void *p);

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

void NAME(sum_heap)(int64_t n) {
  struct sm *s = bench_launder(malloc(sizeof *s));
  sm_start(s, n);
  while (!s->done) {
    bench_sink(s->value);
    s->resume(s); /* indirect, as a coroutine resume */
  }
  free(s);
}

void NAME(sum_elided)(int64_t n) {
  struct sm s;
  sm_start(&s, n);
  while (!s.done) {
    bench_sink(s.value);
    sm_resume(&s);
  }
}
