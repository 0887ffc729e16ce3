/* RUN: env ASAN_OPTIONS=allocator_may_return_null=1 not --crash %capi_bin/oom
 * 2>&1 | FileCheck %s
 *
 * The library's one out-of-memory policy (ir/support.h): an allocation it
 * cannot make reports and stops through LLVM's allocation failure
 * handler, as MLIR's own allocations do. It never returns NULL to a caller
 * that would go on (an assert on the result vanishes in release builds). */
#include "ir/support.h"

#include <stdint.h>
#include <stdio.h>

int main(void) {
  // CHECK: allocating
  fprintf(stderr, "allocating\n");
  void *p = ir_xmalloc(SIZE_MAX / 2);
  // CHECK: LLVM ERROR: out of memory
  // CHECK-NOT: returned
  fprintf(stderr, "returned %p\n", p);
  return 0;
}
