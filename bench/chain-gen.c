/* chain-gen.c - prints a coro-dialect module whose switch coroutine @chain
 * has N suspension points in straight-line code with K+1 i64 values live
 * across each, for bench/split.sh to measure frame bytes and split time.
 *
 * Usage: chain-gen N K > chain.mlir
 *
 * Step i (0 <= i < N) of @chain computes K fresh values v_j = mix(acc, j),
 * j = 1..K, yields acc, then folds acc' = mix(acc + v_1 + ... + v_K, i).
 * Across each suspension exactly acc and v_1..v_K are live; every one of
 * them is dead after its own step, so a frame that shares storage between
 * suspensions needs K+1 slots whatever N is, while one slot per spilled
 * value needs N*(K+1). The values come from calls to @mix, which neither
 * LLVM's CoroSplit nor coro's --coro-split will recompute after a
 * suspension (they rematerialize arithmetic, not calls), so every one of
 * them really lives in the frame. The yield's destroy flag is ignored:
 * destroying @chain frees it without running anything.
 *
 * @main creates the chain with acc = 1, resumes it until coro.done, reads
 * the result coro.end published through coro.promise, destroys it and
 * returns that result, so `coro-run chain.mlir` prints one number. mix(a, j)
 * is (3a + j) mod 1000003 on unsigned i64, so nothing overflows. */
#include <stdio.h>
#include <stdlib.h>

#include "gen-args.h"


static void print_mix(void) {
  puts("func.func private @mix(%a: i64, %j: i64) -> i64 {\n"
       "  %c3 = arith.constant 3 : i64\n"
       "  %p = arith.constant 1000003 : i64\n"
       "  %t = arith.muli %a, %c3 : i64\n"
       "  %u = arith.addi %t, %j : i64\n"
       "  %r = arith.remui %u, %p : i64\n"
       "  return %r : i64\n"
       "}\n");
}

/* One step of @chain: consumes %a<i>, defines %a<i+1>. */
static void print_step(long i, long k) {
  for (long j = 1; j <= k; ++j)
    printf("  %%v%ld_%ld = call @mix(%%a%ld, %%c%ld) : (i64, i64) -> i64\n", i,
           j, i, j);
  printf("  %%d%ld = \"coro.yield\"(%%a%ld) : (i64) -> i1\n", i, i);
  printf("  %%s%ld_0 = arith.addi %%a%ld, %%v%ld_1 : i64\n", i, i, i);
  for (long j = 2; j <= k; ++j)
    printf("  %%s%ld_%ld = arith.addi %%s%ld_%ld, %%v%ld_%ld : i64\n", i, j - 1,
           i, j - 2, i, j);
  printf("  %%i%ld = arith.constant %ld : i64\n", i, i);
  printf("  %%a%ld = call @mix(%%s%ld_%ld, %%i%ld) : (i64, i64) -> i64\n",
         i + 1, i, k - 1, i);
}

static void print_chain(long n, long k) {
  puts("func.func @chain(%a0: i64) -> !coro.handle<i64> "
       "attributes {coro.abi = \"switch\"} {\n"
       "  %h = \"coro.begin\"() : () -> !coro.handle<i64>");
  for (long j = 1; j <= k; ++j)
    printf("  %%c%ld = arith.constant %ld : i64\n", j, j);
  for (long i = 0; i < n; ++i)
    print_step(i, k);
  printf("  \"coro.end\"(%%h, %%a%ld) : (!coro.handle<i64>, i64) -> ()\n"
         "  return %%h : !coro.handle<i64>\n"
         "}\n\n",
         n);
}

static void print_main(void) {
  puts("func.func @main() -> i64 {\n"
       "  %seed = arith.constant 1 : i64\n"
       "  %h = call @chain(%seed) : (i64) -> !coro.handle<i64>\n"
       "  cf.br ^check\n"
       "^check:\n"
       "  %done = \"coro.done\"(%h) : (!coro.handle<i64>) -> i1\n"
       "  cf.cond_br %done, ^exit, ^again\n"
       "^again:\n"
       "  \"coro.resume\"(%h) : (!coro.handle<i64>) -> ()\n"
       "  cf.br ^check\n"
       "^exit:\n"
       "  %r = \"coro.promise\"(%h) : (!coro.handle<i64>) -> i64\n"
       "  \"coro.destroy\"(%h) : (!coro.handle<i64>) -> ()\n"
       "  return %r : i64\n"
       "}");
}

int main(int argc, char **argv) {
  long n = argc == 3 ? count(argv[1], 1000000) : 0;
  long k = argc == 3 ? count(argv[2], 100000) : 0;
  if (!n || !k) {
    fprintf(stderr, "usage: chain-gen N K  (N suspensions, K values live "
                    "across each besides the accumulator; N, K >= 1)\n");
    return 2;
  }
  printf("// chain-gen %ld %ld: %ld suspensions, %ld values live across "
         "each.\n",
         n, k, n, k + 1);
  print_mix();
  print_chain(n, k);
  print_main();
  return 0;
}
