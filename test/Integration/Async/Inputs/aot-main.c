/* aot-main.c - a C host for a lowered coro program compiled ahead of time:
 * calls its entry @fib_main (an async fib under coro's runtime) and prints
 * the result. Used by ../aot.test. */
#include <stdint.h>
#include <stdio.h>

int64_t fib_main(void);

int main(void) {
  printf("%lld\n", (long long)fib_main());
  return 0;
}
