/* many-gen.c - prints a coro-dialect module of M small coroutines, for
 * bench/many.sh to measure how the passes scale with the number of
 * coroutines in one module (each coroutine stays the same size).
 *
 * Usage: many-gen M ABI > many.mlir
 *
 * ABI is switch, retcon, retcon-once, async, or mix (coroutine i takes
 * switch, retcon, retcon.once, async by i % 4). Coroutine @gen<i>(n, a) is
 * a loop of n steps with three yields a step: x = i + a, y = x + b,
 * z = y + b with b = a * n, so i, n, b, x and y are live across
 * suspensions. A retcon.once coroutine suspends exactly once on every path,
 * so it has no loop: it yields x = a + n and, resumed, ends with
 * y + z = 2x + 3b as its final result (resumed abnormally, with x).
 *
 * @drive<i>(n) creates @gen<i>(n, a_i), a_i = i % 13 + 1, sums its
 * published values (coro.promise) while it is not done, resuming it after
 * each, destroys it and returns the sum; for retcon.once the sum is the
 * yielded value plus the final result. @main calls every driver with n = 4
 * and returns the sum of their sums, so `coro-run many.mlir` prints one
 * number, the one in the module's first-line comment "expected: S". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen-args.h"

enum abi { SWITCH, RETCON, RETCON_ONCE, ASYNC, MIX };

static const char *const abi_attr[] = {"switch", "retcon", "retcon.once",
                                       "async"};
static const long steps = 4; /* n, the loop's trip count */


/* The ABI named S, or -1. */
static int parse_abi(const char *s) {
  static const char *const names[] = {"switch", "retcon", "retcon-once",
                                      "async", "mix"};
  for (int i = 0; i < 5; ++i)
    if (!strcmp(s, names[i]))
      return i;
  return -1;
}

static long a_of(long i) { return i % 13 + 1; }

/* What @drive<i> returns for ABI K (see the comment above). */
static long expected(int k, long i) {
  long a = a_of(i), n = steps, b = a * n;
  if (k == RETCON_ONCE) {
    long x = a + n;
    return x + (2 * x + 3 * b);
  }
  /* sum over i < n of (i + a) + (i + a + b) + (i + a + 2b) */
  return 3 * (n * (n - 1) / 2) + 3 * n * a + 3 * n * b;
}

static void print_loop_gen(long i, int k) {
  printf("func.func @gen%ld(%%n: i64, %%a: i64) -> !coro.handle<i64> "
         "attributes {coro.abi = \"%s\"} {\n"
         "  %%h = \"coro.begin\"() : () -> !coro.handle<i64>\n"
         "  %%c0 = arith.constant 0 : i64\n"
         "  %%c1 = arith.constant 1 : i64\n"
         "  %%b = arith.muli %%a, %%n : i64\n"
         "  cf.br ^loop(%%c0 : i64)\n"
         "^loop(%%i: i64):\n"
         "  %%more = arith.cmpi slt, %%i, %%n : i64\n"
         "  cf.cond_br %%more, ^body, ^done\n"
         "^body:\n"
         "  %%x = arith.addi %%i, %%a : i64\n"
         "  \"coro.yield\"(%%x) : (i64) -> i1\n"
         "  %%y = arith.addi %%x, %%b : i64\n"
         "  \"coro.yield\"(%%y) : (i64) -> i1\n"
         "  %%z = arith.addi %%y, %%b : i64\n"
         "  \"coro.yield\"(%%z) : (i64) -> i1\n"
         "  %%next = arith.addi %%i, %%c1 : i64\n"
         "  cf.br ^loop(%%next : i64)\n"
         "^done:\n"
         "  \"coro.end\"(%%h) : (!coro.handle<i64>) -> ()\n"
         "  return %%h : !coro.handle<i64>\n"
         "}\n",
         i, abi_attr[k]);
}

static void print_loop_drive(long i) {
  printf("func.func @drive%ld(%%n: i64) -> i64 {\n"
         "  %%a = arith.constant %ld : i64\n"
         "  %%c0 = arith.constant 0 : i64\n"
         "  %%h = func.call @gen%ld(%%n, %%a) : (i64, i64) -> "
         "!coro.handle<i64>\n"
         "  cf.br ^l(%%c0 : i64)\n"
         "^l(%%s: i64):\n"
         "  %%d = \"coro.done\"(%%h) : (!coro.handle<i64>) -> i1\n"
         "  cf.cond_br %%d, ^e, ^r\n"
         "^r:\n"
         "  %%v = \"coro.promise\"(%%h) : (!coro.handle<i64>) -> i64\n"
         "  %%t = arith.addi %%s, %%v : i64\n"
         "  \"coro.resume\"(%%h) : (!coro.handle<i64>) -> ()\n"
         "  cf.br ^l(%%t : i64)\n"
         "^e:\n"
         "  \"coro.destroy\"(%%h) : (!coro.handle<i64>) -> ()\n"
         "  return %%s : i64\n"
         "}\n",
         i, a_of(i), i);
}

static void print_once_gen(long i) {
  printf("func.func @gen%ld(%%n: i64, %%a: i64) -> !coro.handle<i64> "
         "attributes {coro.abi = \"retcon.once\"} {\n"
         "  %%h = \"coro.begin\"() : () -> !coro.handle<i64>\n"
         "  %%b = arith.muli %%a, %%n : i64\n"
         "  %%x = arith.addi %%a, %%n : i64\n"
         "  %%d = \"coro.yield\"(%%x) : (i64) -> i1\n"
         "  cf.cond_br %%d, ^abort, ^commit\n"
         "^commit:\n"
         "  %%y = arith.addi %%x, %%b : i64\n"
         "  %%z = arith.addi %%y, %%b : i64\n"
         "  %%r = arith.addi %%y, %%z : i64\n"
         "  \"coro.end\"(%%h, %%r) : (!coro.handle<i64>, i64) -> ()\n"
         "  return %%h : !coro.handle<i64>\n"
         "^abort:\n"
         "  \"coro.end\"(%%h, %%x) : (!coro.handle<i64>, i64) -> ()\n"
         "  return %%h : !coro.handle<i64>\n"
         "}\n",
         i);
}

static void print_once_drive(long i) {
  printf("func.func @drive%ld(%%n: i64) -> i64 {\n"
         "  %%a = arith.constant %ld : i64\n"
         "  %%h = func.call @gen%ld(%%n, %%a) : (i64, i64) -> "
         "!coro.handle<i64>\n"
         "  %%v = \"coro.promise\"(%%h) : (!coro.handle<i64>) -> i64\n"
         "  \"coro.resume\"(%%h) : (!coro.handle<i64>) -> ()\n"
         "  %%f = \"coro.promise\"(%%h) : (!coro.handle<i64>) -> i64\n"
         "  \"coro.destroy\"(%%h) : (!coro.handle<i64>) -> ()\n"
         "  %%s = arith.addi %%v, %%f : i64\n"
         "  return %%s : i64\n"
         "}\n",
         i, a_of(i), i);
}

static void print_main(long m) {
  printf("func.func @main() -> i64 {\n"
         "  %%n = arith.constant %ld : i64\n"
         "  %%s0 = arith.constant 0 : i64\n",
         steps);
  for (long i = 0; i < m; ++i)
    printf("  %%r%ld = func.call @drive%ld(%%n) : (i64) -> i64\n"
           "  %%s%ld = arith.addi %%s%ld, %%r%ld : i64\n",
           i, i, i + 1, i, i);
  printf("  return %%s%ld : i64\n"
         "}\n",
         m);
}

int main(int argc, char **argv) {
  long m = argc == 3 ? count(argv[1], 10000000) : 0;
  int abi = argc == 3 ? parse_abi(argv[2]) : -1;
  if (!m || abi < 0) {
    fprintf(stderr, "usage: many-gen M ABI  (M >= 1 coroutines; ABI one of "
                    "switch, retcon, retcon-once, async, mix)\n");
    return 2;
  }
  long sum = 0;
  for (long i = 0; i < m; ++i)
    sum += expected(abi == MIX ? (int)(i % 4) : abi, i);
  printf("// many-gen %ld %s: expected: %ld\n", m, argv[2], sum);
  for (long i = 0; i < m; ++i) {
    int k = abi == MIX ? (int)(i % 4) : abi;
    if (k == RETCON_ONCE) {
      print_once_gen(i);
      print_once_drive(i);
    } else {
      print_loop_gen(i, k);
      print_loop_drive(i);
    }
  }
  print_main(m);
  return 0;
}
