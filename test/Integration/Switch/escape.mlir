// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s

// Handles escape the function that created them: @make returns a handle it
// got from the ramp, @drive resumes it through a block argument and reads
// its promise, and @finish destroys it. The generator counts by threes.
// 0 + 3 + 6 + 9 = 18 over four pulls.
// CHECK: 18
func.func @threes() -> !coro.handle<i32> attributes {coro.abi = "switch"} {
  %h = "coro.begin"() : () -> !coro.handle<i32>
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  cf.br ^loop(%c0 : i32)
^loop(%i: i32):
  %d = "coro.yield"(%i) : (i32) -> i1
  %n = arith.addi %i, %c3 : i32
  cf.cond_br %d, ^end, ^loop(%n : i32)
^end:
  "coro.end"(%h) : (!coro.handle<i32>) -> ()
  return %h : !coro.handle<i32>
}

func.func @make() -> !coro.handle<i32> {
  %g = call @threes() : () -> !coro.handle<i32>
  return %g : !coro.handle<i32>
}

func.func @pull(%g: !coro.handle<i32>) -> i32 {
  %v = "coro.promise"(%g) : (!coro.handle<i32>) -> i32
  cf.br ^go(%g : !coro.handle<i32>)
^go(%h: !coro.handle<i32>):
  "coro.resume"(%h) : (!coro.handle<i32>) -> ()
  return %v : i32
}

func.func @finish(%g: !coro.handle<i32>) {
  "coro.destroy"(%g) : (!coro.handle<i32>) -> ()
  return
}

func.func @main() -> i32 {
  %g = call @make() : () -> !coro.handle<i32>
  %a = call @pull(%g) : (!coro.handle<i32>) -> i32
  %b = call @pull(%g) : (!coro.handle<i32>) -> i32
  %c = call @pull(%g) : (!coro.handle<i32>) -> i32
  %d = call @pull(%g) : (!coro.handle<i32>) -> i32
  call @finish(%g) : (!coro.handle<i32>) -> ()
  %ab = arith.addi %a, %b : i32
  %cd = arith.addi %c, %d : i32
  %r = arith.addi %ab, %cd : i32
  return %r : i32
}
