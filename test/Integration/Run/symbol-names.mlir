// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=llvm %s -O2 | FileCheck %s

// Coroutines whose names need quoting (a quote, a newline): the retcon and
// async lowerings generate functions named after them.
// CHECK: {{^}}7{{$}}
func.func @"we\22ird\0Aname"() -> !coro.handle<i64> attributes {coro.abi = "retcon"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c = arith.constant 3 : i64
  "coro.yield"(%c) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}
func.func @"as\22ync\0A"() -> !coro.handle<i64> attributes {coro.abi = "async"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %c = arith.constant 4 : i64
  "coro.yield"(%c) : (i64) -> i1
  "coro.end"(%h) : (!coro.handle<i64>) -> ()
  return %h : !coro.handle<i64>
}
func.func @main() -> i64 {
  %g = call @"we\22ird\0Aname"() : () -> !coro.handle<i64>
  %v = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  %a = call @"as\22ync\0A"() : () -> !coro.handle<i64>
  %w = "coro.promise"(%a) : (!coro.handle<i64>) -> i64
  "coro.destroy"(%a) : (!coro.handle<i64>) -> ()
  %s = arith.addi %v, %w : i64
  return %s : i64
}
