/* sink.c - the opaque functions every benchmarked consumer calls, in their
 * own translation unit (no LTO) so that no side can inline or fold them. */
#include <stdint.h>

volatile int64_t bench_acc;

void bench_sink(int64_t v) { bench_acc += v; }

/* Hides where a pointer came from: a frame passed through here cannot be
 * proven local, so it stays on the heap. */
void *bench_launder(void *p) { return p; }
